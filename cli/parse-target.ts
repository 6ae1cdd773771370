import { parse as parseShell } from "shell-quote";
import { checkUrl } from "@/lib/discovery/node/network-guard";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";

export class UsageError extends Error {}

/** "--stdio 'cmd args'" / "--url u" plus --env / --header into one connection config. */
export function parseTarget(opts: { stdio?: string; url?: string; env?: string[]; header?: string[]; cwd?: string; transport?: string }): ServerConnectionConfig {
  if (Boolean(opts.stdio) === Boolean(opts.url)) throw new UsageError("give exactly one of --stdio \"<command and args>\" or --url <url>");
  if (opts.stdio) {
    const words = parseShell(opts.stdio);
    if (!words.every((w): w is string => typeof w === "string")) {
      throw new UsageError("--stdio takes a plain command line: shell operators such as |, >, && or globs are not run by a shell here");
    }
    const [command, ...args] = words;
    if (!command) throw new UsageError("--stdio needs a command");
    if (opts.header?.length) throw new UsageError("--header applies to --url servers; use --env for stdio servers");
    return { transport: "stdio", command, args, env: pairs(opts.env ?? [], "=", "--env K=V"), ...(opts.cwd ? { cwd: opts.cwd } : {}) };
  }
  const checked = checkUrl(opts.url!);
  if (!checked.ok) throw new UsageError(checked.message);
  if (opts.env?.length) throw new UsageError("--env applies to --stdio servers; use --header for HTTP servers");
  const transport = opts.transport === "sse" ? "sse" : "streamable_http";
  return { transport, url: checked.url.toString(), headers: pairs(opts.header ?? [], ":", '--header "Name: value"') };
}

function pairs(items: string[], separator: string, form: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new UsageError(`expected ${form}, got ${JSON.stringify(item)}`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}
