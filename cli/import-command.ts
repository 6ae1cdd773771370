import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseClientConfig } from "@/lib/import/parse-client-config";
import { planImport, type PlannedAction } from "@/lib/import/plan-import";
import { MAX_REGISTRY_PAGES, parseRegistryPage, registryEntries, registryPageUrl, type RegistryPage } from "@/lib/import/registry";
import { FORMAT_LABELS, ImportFormatError, type ImportEntry } from "@/lib/import/types";
import type { GuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { visible } from "./render-snapshot";
import { ApiError, apiTarget, describeRequestError, outboundFetch, ToolwatchApi } from "./toolwatch-api";

const HELP = `usage: toolwatch import <file | -> [--tag t]… [--dry-run]
       toolwatch import --registry <url> [--search text] [--limit n] [--tag t]… [--dry-run]
   with --api-url <url> (or TOOLWATCH_API_URL) and --api-key <key> (or TOOLWATCH_API_KEY)

Registers the MCP servers of a client config (Claude Desktop, Claude Code / .mcp.json, Cursor,
VS Code mcp.json or settings.json, Windsurf, Zed, or a "toolwatch export" file; the format is
detected) or the remote servers of an MCP Registry with the instance's team of the API key.
Servers are keyed by name: existing ones are updated when they differ, never duplicated.
Prints created / updated / unchanged / refused (why) per server, then a summary.
Exit 0; 1 when a server was refused or the instance could not be reached; 2 for bad usage.
See docs/import.md.`;

const TAG = /^[\w.:/-]{1,60}$/;

export type ImportIo = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdin: NodeJS.ReadableStream; env: NodeJS.ProcessEnv };

export async function runImportCommand(argv: string[], io: ImportIo): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const usage = (message: string) => (io.stderr.write(`toolwatch import: ${message}\n\n${HELP}\n`), 2);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "api-url": { type: "string" },
        "api-key": { type: "string" },
        "dry-run": { type: "boolean", default: false },
        tag: { type: "string", multiple: true, default: [] },
        registry: { type: "string" },
        search: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return out(HELP), 0;
  const registry = values.registry;
  if (registry ? positionals.length !== 0 : positionals.length !== 1) return usage(registry ? "--registry takes no file" : "give one file (or - for standard input), or --registry <url>");
  if (!registry && (values.search !== undefined || values.limit !== undefined)) return usage("--search and --limit apply to --registry");
  const badTag = values.tag.find((t) => !TAG.test(t));
  if (badTag !== undefined) return usage(`--tag ${JSON.stringify(badTag)}: tags are 1–60 letters, digits and . _ : / -`);
  const limit = values.limit === undefined ? 1_000 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return usage("--limit takes a whole number from 1 to 10000");
  const target = apiTarget(values, io.env);
  if (typeof target === "string") return usage(target);

  const fetch = outboundFetch();
  try {
    let entries: ImportEntry[];
    let skipped: { name: string; why: string }[] = [];
    let source: string;
    try {
      if (registry) {
        ({ entries, skipped } = registryEntries(await readRegistry(fetch, registry, values.search, limit), values.tag));
        source = `registry ${registry}`;
      } else {
        const text = positionals[0] === "-" ? await readStream(io.stdin) : await readFile(positionals[0]!, "utf8");
        const config = parseClientConfig(text);
        entries = config.entries;
        source = FORMAT_LABELS[config.format];
      }
    } catch (error) {
      if (error instanceof ImportFormatError) return io.stderr.write(`toolwatch import: ${visible(error.message)}\n`), 1;
      const e = error as NodeJS.ErrnoException;
      if (e.code === "ENOENT" || e.code === "EISDIR" || e.code === "EACCES") return io.stderr.write(`toolwatch import: cannot read ${positionals[0]}: ${e.code}\n`), 1;
      throw error;
    }
    const api = new ToolwatchApi(target, fetch);
    const plan = planImport(entries, await api.listServers(), values.tag);
    const results = values["dry-run"] ? plan : await apply(api, plan);
    const would = values["dry-run"] ? "would be " : "";
    const count = (k: PlannedAction["kind"]) => results.filter((r) => r.kind === k).length;
    for (const r of results) out(line(r, values["dry-run"]));
    for (const s of skipped) out(`skipped    ${visible(s.name)}: ${visible(s.why)}`);
    out(
      `${source}: ${count("create")} ${would}created, ${count("update")} ${would}updated, ${count("unchanged")} unchanged, ${count("refused")} refused` +
        (registry ? `, ${skipped.length} skipped` : "") +
        (values["dry-run"] ? " (dry run: nothing was changed)" : ""),
    );
    return count("refused") ? 1 : 0;
  } catch (error) {
    io.stderr.write(`toolwatch import: ${visible(describeRequestError(error))}\n`);
    return 1;
  } finally {
    await fetch.close();
  }
}

function line(r: PlannedAction, dryRun: boolean): string {
  const name = visible(r.name);
  const notes = "notes" in r && r.notes.length ? ` (${r.notes.map(visible).join("; ")})` : "";
  switch (r.kind) {
    case "create":
      return `${dryRun ? "would create" : "created   "} ${name}${notes}`;
    case "update":
      return `${dryRun ? "would update" : "updated   "} ${name}: ${r.changed.join(", ")}${notes}`;
    case "unchanged":
      return `unchanged  ${name}${notes}`;
    case "refused":
      return `refused    ${name}: ${visible(r.why)}`;
  }
}

/** Creates the new servers in one batch call and patches the changed ones. The batch is all or nothing, so items it refuses are reported refused and the rest sent once more. */
async function apply(api: ToolwatchApi, plan: PlannedAction[]): Promise<PlannedAction[]> {
  const results = [...plan];
  let pending = plan.flatMap((p, i) => (p.kind === "create" ? [i] : []));
  for (let attempt = 0; pending.length && attempt < 2; attempt++) {
    try {
      await api.request("POST", "/api/v1/servers/batch", { servers: pending.map((i) => (plan[i] as Extract<PlannedAction, { kind: "create" }>).body) });
      pending = [];
    } catch (error) {
      const items = error instanceof ApiError ? (error.details as { errors?: { index: number; message: string }[] } | undefined)?.errors : undefined;
      if (!items?.length || attempt === 1) {
        for (const i of pending) results[i] = { kind: "refused", name: plan[i]!.name, why: describeRequestError(error) };
        pending = [];
        break;
      }
      const refused = new Map(items.map((e) => [pending[e.index], e.message]));
      for (const [i, why] of refused) if (i !== undefined) results[i] = { kind: "refused", name: plan[i]!.name, why };
      pending = pending.filter((i) => !refused.has(i));
    }
  }
  for (const [i, p] of plan.entries()) {
    if (p.kind !== "update") continue;
    try {
      await api.request("PATCH", `/api/v1/servers/${encodeURIComponent(p.id)}`, p.patch);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      results[i] = { kind: "refused", name: p.name, why: describeRequestError(error) };
    }
  }
  return results;
}

async function readRegistry(fetch: GuardedFetch, base: string, search: string | undefined, limit: number): Promise<RegistryPage[]> {
  try {
    new URL(base);
  } catch {
    throw new ImportFormatError(`--registry ${JSON.stringify(base)} is not a URL`);
  }
  const pages: RegistryPage[] = [];
  let cursor: string | null = null;
  let read = 0;
  for (let n = 0; n < MAX_REGISTRY_PAGES && read < limit; n++) {
    const url = registryPageUrl(base, { cursor, limit: Math.min(100, limit - read), search });
    const res = await fetch(url, { headers: { accept: "application/json" } });
    if (!res.ok) throw new ImportFormatError(`the registry answered ${res.status} ${res.statusText} for ${url}`);
    let doc: unknown;
    try {
      doc = await res.json();
    } catch {
      throw new ImportFormatError(`the registry's answer for ${url} is not JSON`);
    }
    const page = parseRegistryPage(doc);
    page.items = page.items.slice(0, limit - read);
    pages.push(page);
    read += page.items.length;
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return pages;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
