import { DiscoveryError } from "./discovery-error";

export type RawToolPage = {
  tools: unknown[];
  nextCursor?: unknown;
  ttlMs?: unknown;
  cacheScope?: unknown;
};

/** One page of any paginated list (tools/list, prompts/list, resources/list, resources/templates/list). */
export type RawPage = Record<string, unknown> & { nextCursor?: unknown; ttlMs?: unknown; cacheScope?: unknown };

/** Which list a walk reads: the method (for messages), the result's array key, and the per-item check. */
export type ListSpec = { method: string; itemsKey: string; invalidReason: (item: unknown) => string | null };

/** A named item of a list other than tools (a prompt, resource or resource template), raw as sent. */
export type ValidItem = { name: string } & Record<string, unknown>;

export type ValidTool = { name: string; inputSchema: Record<string, unknown> } & Record<string, unknown>;

export type DroppedTool = { page: number; index: number; reason: string };

export type ItemListing<T> = {
  items: T[];
  dropped: DroppedTool[];
  duplicateNames: string[];
  /** Pages of the walk that produced this list. */
  pages: number;
  /** Walks started over: after -32602 on a cursor, or a list_changed during the walk. */
  restarts: number;
  /** Minimum over pages (each page is independently cacheable); null when no page carried one. */
  ttlMs: number | null;
  /** "private" if any page is private. */
  cacheScope: "public" | "private" | null;
};

export type ToolListing = Omit<ItemListing<ValidTool>, "items"> & { tools: ValidTool[] };

export const TOOLS_LIST: ListSpec = { method: "tools/list", itemsKey: "tools", invalidReason: (item) => invalidToolReason(item) };

export type WalkOptions = {
  maxPages: number;
  /** Count of list_changed notifications seen so far; if it moves during a walk, start over. */
  changeCount?: () => number;
  /** How many times a walk may start over before giving up (default 3). */
  maxRestarts?: number;
};

const INVALID_PARAMS = -32602;

/**
 * A complete tool list or an error, never a partial list: pages fetched under a cursor that the
 * server later rejects (-32602), or while the list changed, are thrown away and the walk restarts
 * from page 1 (2026-07-28 caching spec: discard all pages and restart).
 */
export async function walkToolPages(fetchPage: (cursor: string | undefined) => Promise<RawToolPage>, opts: WalkOptions): Promise<ToolListing> {
  const { items, ...rest } = await walkListPages<ValidTool>(TOOLS_LIST, fetchPage as (cursor: string | undefined) => Promise<RawPage>, opts);
  return { ...rest, tools: items };
}

/** walkToolPages for any paginated list: same cursor rules, restarts, caps and per-item salvage. */
export async function walkListPages<T extends { name: string }>(spec: ListSpec, fetchPage: (cursor: string | undefined) => Promise<RawPage>, opts: WalkOptions): Promise<ItemListing<T>> {
  const maxRestarts = opts.maxRestarts ?? 3;
  for (let restarts = 0; ; restarts++) {
    const outcome = await walkOnce<T>(spec, fetchPage, opts);
    if (outcome.kind === "complete") return { ...outcome.listing, restarts };
    if (restarts >= maxRestarts) {
      throw new DiscoveryError(
        outcome.kind === "changed" ? "LIST_UNSTABLE" : "CURSOR_REJECTED",
        outcome.kind === "changed"
          ? `the ${spec.method} list kept changing during ${restarts + 1} walks; no consistent snapshot could be taken`
          : `the server rejected its own cursor (-32602) on ${restarts + 1} walks`,
      );
    }
  }
}

type WalkOutcome<T> = { kind: "complete"; listing: Omit<ItemListing<T>, "restarts"> } | { kind: "changed" } | { kind: "cursor-rejected" };

/**
 * One walk over every page. "" is a valid cursor (2026-07-28); only an absent cursor ends the
 * list. A repeated cursor, or a page identical to the one before under a new cursor, means the
 * server cycles: an error, not a list. Malformed items are dropped one by one with a reason.
 */
async function walkOnce<T extends { name: string }>(spec: ListSpec, fetchPage: (cursor: string | undefined) => Promise<RawPage>, opts: WalkOptions): Promise<WalkOutcome<T>> {
  const { method, itemsKey } = spec;
  const seenCursors = new Set<string>();
  const items: T[] = [];
  const dropped: DroppedTool[] = [];
  const names = new Map<string, number>();
  let ttlMs: number | null = null;
  let cacheScope: ItemListing<T>["cacheScope"] = null;
  let cursor: string | undefined;
  let pages = 0;
  let previousPage: string | undefined;
  const changesAtStart = opts.changeCount?.();

  for (;;) {
    if (pages >= opts.maxPages) {
      throw new DiscoveryError("PAGE_LIMIT", `${method} exceeded ${opts.maxPages} pages; the list was not recorded`);
    }
    let page: RawPage;
    try {
      page = await fetchPage(cursor);
    } catch (error) {
      if (cursor !== undefined && (error as { code?: unknown }).code === INVALID_PARAMS) return { kind: "cursor-rejected" };
      throw error;
    }
    pages++;
    if (opts.changeCount && opts.changeCount() !== changesAtStart) return { kind: "changed" };
    const pageItems = page?.[itemsKey];
    if (!page || !Array.isArray(pageItems)) {
      throw new DiscoveryError("INVALID_RESULT", `${method} page ${pages} has no ${itemsKey} array`);
    }
    pageItems.forEach((raw, index) => {
      const reason = spec.invalidReason(raw);
      if (reason) dropped.push({ page: pages, index, reason });
      else {
        const item = raw as T;
        names.set(item.name, (names.get(item.name) ?? 0) + 1);
        items.push(item);
      }
    });
    if (typeof page.ttlMs === "number" && Number.isFinite(page.ttlMs)) {
      const ttl = Math.max(0, Math.floor(page.ttlMs));
      ttlMs = ttlMs === null ? ttl : Math.min(ttlMs, ttl);
    }
    if (page.cacheScope === "private") cacheScope = "private";
    else if (page.cacheScope === "public" && cacheScope === null) cacheScope = "public";

    if (page.nextCursor === undefined || page.nextCursor === null) break;
    const fingerprint = JSON.stringify(pageItems);
    if (pageItems.length > 0 && fingerprint === previousPage) {
      throw new DiscoveryError("REPEATED_PAGE", `${method} page ${pages} repeats page ${pages - 1} under a new cursor; the server is looping`);
    }
    previousPage = fingerprint;
    if (typeof page.nextCursor !== "string") {
      throw new DiscoveryError("INVALID_RESULT", `${method} page ${pages} has a non-string nextCursor`);
    }
    if (seenCursors.has(page.nextCursor)) {
      throw new DiscoveryError("CURSOR_CYCLE", `${method} returned cursor ${JSON.stringify(page.nextCursor.slice(0, 80))} twice (after ${pages} pages)`);
    }
    seenCursors.add(page.nextCursor);
    cursor = page.nextCursor;
  }

  const duplicateNames = [...names].filter(([, n]) => n > 1).map(([name]) => name);
  return { kind: "complete", listing: { items, dropped, duplicateNames, pages, ttlMs, cacheScope } };
}

/** A prompt, resource or template: an object with a non-empty `name` (and `uri` / `uriTemplate` for the last two). */
export function invalidItemReason(item: unknown, label: string, field?: "uri" | "uriTemplate"): string | null {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return "not an object";
  const o = item as Record<string, unknown>;
  if (typeof o.name !== "string" || o.name.length === 0) return "missing name";
  if (field && typeof o[field] !== "string") return `${label} ${JSON.stringify(o.name)}: ${field} is not a string`;
  if (o.description !== undefined && typeof o.description !== "string") return `${label} ${JSON.stringify(o.name)}: description is not a string`;
  return null;
}

export function invalidToolReason(item: unknown): string | null {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return "not an object";
  const tool = item as Record<string, unknown>;
  if (typeof tool.name !== "string" || tool.name.length === 0) return "missing name";
  const schema = tool.inputSchema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return `tool ${JSON.stringify(tool.name)}: inputSchema is not an object`;
  if ((schema as Record<string, unknown>).type !== "object") return `tool ${JSON.stringify(tool.name)}: inputSchema.type is not "object"`;
  if (tool.description !== undefined && typeof tool.description !== "string") return `tool ${JSON.stringify(tool.name)}: description is not a string`;
  return null;
}
