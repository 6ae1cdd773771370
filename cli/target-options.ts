// The connection options `snapshot`, `lock` and `check` share: one spec, one validation, so the
// three commands take a target exactly alike.
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import type { EraMode } from "@/lib/discovery/open-connection";
import { takeSnapshot, type OneShotOptions } from "@/lib/discovery/take-snapshot";
import { visibleText } from "@/lib/diff";
import { describeError } from "@/lib/discovery/discovery-error";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";
import { OAUTH_OPTIONS, OAUTH_USAGE, resolveOAuth, startOAuth, type OAuthPlan, type OAuthValues } from "./oauth-options";
import { parseTarget, UsageError } from "./parse-target";

/** For node:util parseArgs; spread into a command's own options. */
export const TARGET_OPTIONS = {
  stdio: { type: "string" },
  url: { type: "string" },
  env: { type: "string", multiple: true },
  header: { type: "string", multiple: true },
  cwd: { type: "string" },
  transport: { type: "string", default: "auto" },
  era: { type: "string", default: "auto" },
  timeout: { type: "string", default: "20000" },
  "max-pages": { type: "string", default: "1000" },
  "block-private": { type: "boolean", default: false },
  ...OAUTH_OPTIONS,
} as const;

export const TARGET_USAGE = `(--stdio "<command and args>" [--env K=V]… [--cwd dir] | --url <url> [--header "Name: value"]…)
    [--transport auto|streamable-http|sse] [--era auto|legacy|modern] [--timeout ms] [--max-pages n] [--block-private]
  ${OAUTH_USAGE}`;

export type TargetValues = OAuthValues & {
  stdio?: string;
  url?: string;
  env?: string[];
  header?: string[];
  cwd?: string;
  transport: string;
  era: string;
  timeout: string;
  "max-pages": string;
  "block-private": boolean;
};

/** A validated target: what to connect to and how; the guarded fetch is made per use (it holds sockets). */
export type ResolvedTarget = {
  config: ServerConnectionConfig;
  blockPrivate: boolean;
  settings: Omit<OneShotOptions, "fetch">;
  /** How to authorize (OAuth); holds secrets, so never printed. */
  oauth?: OAuthPlan;
};

/** Throws UsageError with a one-line reason. */
export function resolveTarget(values: TargetValues): ResolvedTarget {
  if (!["auto", "streamable-http", "sse"].includes(values.transport)) throw new UsageError("--transport must be auto, streamable-http or sse");
  if (!["auto", "legacy", "modern"].includes(values.era)) throw new UsageError("--era must be auto, legacy or modern");
  const timeout = Number(values.timeout);
  const maxPages = Number(values["max-pages"]);
  if (!Number.isInteger(timeout) || timeout < 100) throw new UsageError("--timeout takes milliseconds (at least 100)");
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new UsageError("--max-pages takes a positive whole number");
  const config = parseTarget(values);
  const oauth = resolveOAuth(values, config.transport !== "stdio");
  return {
    config,
    ...(oauth ? { oauth } : {}),
    blockPrivate: values["block-private"],
    settings: {
      era: values.era as EraMode,
      connectTimeoutMs: timeout,
      requestTimeoutMs: timeout,
      maxPages,
      fallbackToSse: values.transport === "auto",
    },
  };
}

/** Runs `use` with the target's connect options and a fresh guarded fetch, closed afterwards. */
export async function withConnectOptions<T>(target: ResolvedTarget, use: (options: OneShotOptions) => Promise<T>): Promise<T> {
  const guarded = createGuardedFetch({ blockPrivate: target.blockPrivate, maxResponseBytes: 16 * 1024 * 1024 });
  // OAuth requests (metadata, registration, token) go through the same guarded fetch as MCP traffic.
  const oauth = target.oauth ? await startOAuth(target.oauth, guarded, (line) => process.stderr.write(line + "\n")) : undefined;
  try {
    return await use({
      ...target.settings,
      fetch: guarded,
      ...(oauth ? { authProvider: oauth.authProvider } : {}),
      ...(oauth?.awaitAuthorizationCallback ? { awaitAuthorizationCallback: oauth.awaitAuthorizationCallback } : {}),
    });
  } finally {
    await oauth?.close();
    await guarded.close();
  }
}

/**
 * One live snapshot of the target for a command that compares or records it (`lock`, `check`):
 * a connection failure is one line on stderr and exit code 2; listing warnings go to stderr.
 */
export async function liveSnapshotOrExit(command: string, target: ResolvedTarget, stderr: { write(text: string): unknown }): Promise<Awaited<ReturnType<typeof takeSnapshot>> | 2> {
  let snapshot;
  try {
    snapshot = await withConnectOptions(target, (options) => takeSnapshot(target.config, options));
  } catch (error) {
    const { code, message } = describeError(error);
    stderr.write(`toolwatch ${command}: ${code}: ${visibleText(message).split("\n")[0]}\n`);
    return 2;
  }
  for (const warning of snapshot.listing.warnings) stderr.write(`toolwatch ${command}: warning: ${visibleText(warning)}\n`);
  return snapshot;
}
