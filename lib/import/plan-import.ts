import type { ServerSummary } from "@/lib/servers/server-dto";
import type { ImportEntry, ServerBody } from "./types";

// Idempotency by (team, name): an entry whose name is new is created; one whose name exists is
// compared with what the API shows of that server and patched only when something differs.
//
// What can be compared: transport, the command line (command + args, as the API's `target`) or
// URL, the NAMES of env variables / headers, tags, and enabled / pollIntervalSeconds / auditPolicy
// when the entry states them. What cannot: secret VALUES (the API never returns them) and cwd
// (not returned). So an entry whose comparable fields all match is "unchanged" even if a secret
// value in the file differs; when anything comparable differs the whole connection config from
// the file, secret values included, is sent. Tags are only ever added: import never removes a tag.

export type PlannedAction =
  | { kind: "create"; name: string; body: ServerBody; notes: string[] }
  | { kind: "update"; name: string; id: string; patch: Record<string, unknown>; changed: string[]; notes: string[] }
  | { kind: "unchanged"; name: string; id: string; notes: string[] }
  | { kind: "refused"; name: string; why: string };

/** What the plan compares of a server that exists (a summary of GET /api/v1/servers has it all). */
export type ComparableServer = Pick<ServerSummary, "id" | "name" | "transport" | "target" | "tags" | "enabled" | "envKeys" | "headerKeys" | "pollIntervalSeconds" | "auditPolicy">;

const API_TRANSPORT = { stdio: "stdio", "streamable-http": "streamable_http", sse: "sse" } as const;

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

/** Decides per entry; `extraTags` (--tag) are added to every entry. Names repeated in the input are refused after the first. */
export function planImport(entries: ImportEntry[], existing: ComparableServer[], extraTags: string[] = []): PlannedAction[] {
  const byName = new Map(existing.map((s) => [s.name, s]));
  const seen = new Set<string>();
  return entries.map((entry): PlannedAction => {
    if ("refused" in entry) return { kind: "refused", name: entry.name, why: entry.refused };
    if (seen.has(entry.name)) return { kind: "refused", name: entry.name, why: "the name appears more than once in the input" };
    seen.add(entry.name);
    const body: ServerBody = { ...entry.body, ...(entry.body.tags || extraTags.length ? { tags: union(entry.body.tags ?? [], extraTags) } : {}) };
    const current = byName.get(entry.name);
    if (!current) return { kind: "create", name: entry.name, body, notes: entry.notes };
    return compare(body, current, entry.notes);
  });
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

function compare(body: ServerBody, current: ComparableServer, notes: string[]): PlannedAction {
  const name = body.name;
  if (API_TRANSPORT[body.transport] !== current.transport) {
    return { kind: "refused", name, why: `a server with this name exists with transport ${current.transport}; the API cannot change a server's transport (delete it, or rename the entry)` };
  }
  const patch: Record<string, unknown> = {};
  const changed: string[] = [];
  if (body.transport === "stdio") {
    const commandLine = [body.command ?? "", ...(body.args ?? [])].join(" ");
    const envKeys = Object.keys(body.env ?? {});
    if (commandLine !== current.target) changed.push("command");
    if (!sameSet(envKeys, current.envKeys)) changed.push("env names");
    if (changed.length) Object.assign(patch, { command: body.command, args: body.args ?? [], env: body.env ?? {}, ...(body.cwd ? { cwd: body.cwd } : {}) });
  } else {
    const headerKeys = Object.keys(body.headers ?? {});
    if (body.url !== current.target) changed.push("url");
    if (!sameSet(headerKeys, current.headerKeys)) changed.push("header names");
    if (changed.length) Object.assign(patch, { url: body.url, headers: body.headers ?? {} });
  }
  const set = (field: string, value: unknown) => {
    changed.push(field);
    patch[field] = value;
  };
  const tags = union(current.tags, body.tags ?? []);
  if (tags.length !== current.tags.length) set("tags", tags);
  if (body.enabled !== undefined && body.enabled !== current.enabled) set("enabled", body.enabled);
  if (body.pollIntervalSeconds !== undefined && body.pollIntervalSeconds !== current.pollIntervalSeconds) set("pollIntervalSeconds", body.pollIntervalSeconds);
  if (body.auditPolicy !== undefined && body.auditPolicy !== current.auditPolicy) set("auditPolicy", body.auditPolicy);
  const secrets = Object.keys(body.transport === "stdio" ? (body.env ?? {}) : (body.headers ?? {})).length;
  const caveat = secrets ? [`${body.transport === "stdio" ? "env" : "header"} values not compared (the API never returns them)`] : [];
  if (!changed.length) return { kind: "unchanged", name, id: current.id, notes: [...notes, ...caveat] };
  return { kind: "update", name, id: current.id, patch, changed, notes };
}
