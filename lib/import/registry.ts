import { checked } from "./check-entry";
import { ImportFormatError, type ImportEntry } from "./types";

// The official MCP Registry API (registry.modelcontextprotocol.io, and sub-registries serving the
// same generic API): GET /v0.1/servers?cursor=…&limit=…&search=… →
//   { servers: [ { server: { name, version, remotes?: [{ type: "streamable-http"|"sse", url, headers? }], packages?: […] }, _meta } ],
//     metadata: { nextCursor?, count? } }
// Remote servers (remotes) can be watched over HTTP; package-only servers (npm, PyPI, OCI…) would
// have to be installed and run, so they are reported as skipped.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export type RegistryResult = { entries: ImportEntry[]; skipped: { name: string; why: string }[] };
export type RegistryPage = { items: { name: string; version: string | null; latest: boolean | null; remotes: { type: string; url: string; headers: string[] }[]; packages: number }[]; nextCursor: string | null };

export const MAX_REGISTRY_PAGES = 100;

/** One page of the list, checked; anything not of this shape is an ImportFormatError naming what is wrong. */
export function parseRegistryPage(doc: unknown): RegistryPage {
  if (!isObj(doc) || !Array.isArray(doc.servers)) throw new ImportFormatError("the registry's answer has no servers list (is this the URL of an MCP Registry, e.g. https://registry.modelcontextprotocol.io?)");
  const items = doc.servers.flatMap((wrapped) => {
    const s = isObj(wrapped) && isObj(wrapped.server) ? wrapped.server : wrapped; // v0.1 wraps the server; tolerate a bare one
    if (!isObj(s) || typeof s.name !== "string") return [];
    const official = isObj(wrapped) && isObj(wrapped._meta) ? wrapped._meta["io.modelcontextprotocol.registry/official"] : undefined;
    const remotes = (Array.isArray(s.remotes) ? s.remotes : []).filter(isObj).flatMap((r) =>
      typeof r.type === "string" && typeof r.url === "string"
        ? [{ type: r.type, url: r.url, headers: (Array.isArray(r.headers) ? r.headers : []).filter(isObj).flatMap((h) => (typeof h.name === "string" ? [h.name] : [])) }]
        : [],
    );
    return [{ name: s.name, version: typeof s.version === "string" ? s.version : null, latest: isObj(official) && typeof official.isLatest === "boolean" ? official.isLatest : null, remotes, packages: Array.isArray(s.packages) ? s.packages.length : 0 }];
  });
  const meta = isObj(doc.metadata) ? doc.metadata : {};
  const next = meta.nextCursor ?? meta.next_cursor;
  return { items, nextCursor: typeof next === "string" && next !== "" ? next : null };
}

/** The URL of one list page; `base` is the registry's root (a trailing /v0.1/servers is accepted too). */
export function registryPageUrl(base: string, opts: { cursor?: string | null; limit: number; search?: string }): string {
  const url = new URL(base);
  if (!/\/v0(\.1)?\/servers\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, "")}/v0.1/servers`;
  url.searchParams.set("limit", String(opts.limit));
  if (opts.search) url.searchParams.set("search", opts.search);
  if (opts.cursor) url.searchParams.set("cursor", opts.cursor);
  return url.toString();
}

/**
 * Servers of all pages into entries: one per registry name (its latest version when the registry
 * says which, else the last listed), using its first streamable-http remote, else its first sse one.
 */
export function registryEntries(pages: RegistryPage[], tags: string[] = []): RegistryResult {
  const byName = new Map<string, RegistryPage["items"][number]>();
  for (const item of pages.flatMap((p) => p.items)) {
    const held = byName.get(item.name);
    if (!held || item.latest === true || held.latest !== true) byName.set(item.name, item);
  }
  const entries: ImportEntry[] = [];
  const skipped: RegistryResult["skipped"] = [];
  for (const item of byName.values()) {
    const remote = item.remotes.find((r) => r.type === "streamable-http") ?? item.remotes.find((r) => r.type === "sse");
    if (!remote) {
      skipped.push({ name: item.name, why: item.packages ? "package only (no remote URL): it would have to be installed and run as a stdio server" : "no remote of type streamable-http or sse" });
      continue;
    }
    const notes = [`registry version ${item.version ?? "unknown"}`];
    if (remote.headers.length) notes.push(`the registry lists headers ${remote.headers.join(", ")}: add them to the server after import`);
    const entry = checked({ name: item.name, transport: remote.type === "sse" ? "sse" : "streamable-http", url: remote.url, ...(tags.length ? { tags } : {}) }, notes);
    entries.push(entry);
  }
  return { entries, skipped };
}
