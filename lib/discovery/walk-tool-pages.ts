import { DiscoveryError } from "./discovery-error";

export type RawToolPage = {
  tools: unknown[];
  nextCursor?: unknown;
  ttlMs?: unknown;
  cacheScope?: unknown;
};

export type ValidTool = { name: string; inputSchema: Record<string, unknown> } & Record<string, unknown>;

export type DroppedTool = { page: number; index: number; reason: string };

export type ToolListing = {
  tools: ValidTool[];
  dropped: DroppedTool[];
  duplicateNames: string[];
  pages: number;
  /** Minimum over pages (each page is independently cacheable); null when no page carried one. */
  ttlMs: number | null;
  /** "private" if any page is private. */
  cacheScope: "public" | "private" | null;
};

/**
 * Walks every page of tools/list. "" is a valid cursor (2026-07-28); only an absent cursor ends
 * the list. A repeated cursor means the server cycles: that is an error, not a list. Malformed
 * items are dropped one by one with a reason instead of losing the whole list.
 */
export async function walkToolPages(
  fetchPage: (cursor: string | undefined) => Promise<RawToolPage>,
  opts: { maxPages: number },
): Promise<ToolListing> {
  const seenCursors = new Set<string>();
  const tools: ValidTool[] = [];
  const dropped: DroppedTool[] = [];
  const names = new Map<string, number>();
  let ttlMs: number | null = null;
  let cacheScope: ToolListing["cacheScope"] = null;
  let cursor: string | undefined;
  let pages = 0;

  for (;;) {
    if (pages >= opts.maxPages) {
      throw new DiscoveryError("PAGE_LIMIT", `tools/list exceeded ${opts.maxPages} pages; the list was not recorded`);
    }
    const page = await fetchPage(cursor);
    pages++;
    if (!page || !Array.isArray(page.tools)) {
      throw new DiscoveryError("INVALID_RESULT", `tools/list page ${pages} has no tools array`);
    }
    page.tools.forEach((item, index) => {
      const reason = invalidToolReason(item);
      if (reason) dropped.push({ page: pages, index, reason });
      else {
        const tool = item as ValidTool;
        names.set(tool.name, (names.get(tool.name) ?? 0) + 1);
        tools.push(tool);
      }
    });
    if (typeof page.ttlMs === "number" && Number.isFinite(page.ttlMs)) {
      const ttl = Math.max(0, Math.floor(page.ttlMs));
      ttlMs = ttlMs === null ? ttl : Math.min(ttlMs, ttl);
    }
    if (page.cacheScope === "private") cacheScope = "private";
    else if (page.cacheScope === "public" && cacheScope === null) cacheScope = "public";

    if (page.nextCursor === undefined || page.nextCursor === null) break;
    if (typeof page.nextCursor !== "string") {
      throw new DiscoveryError("INVALID_RESULT", `tools/list page ${pages} has a non-string nextCursor`);
    }
    if (seenCursors.has(page.nextCursor)) {
      throw new DiscoveryError("CURSOR_CYCLE", `tools/list returned cursor ${JSON.stringify(page.nextCursor.slice(0, 80))} twice (after ${pages} pages)`);
    }
    seenCursors.add(page.nextCursor);
    cursor = page.nextCursor;
  }

  const duplicateNames = [...names].filter(([, n]) => n > 1).map(([name]) => name);
  return { tools, dropped, duplicateNames, pages, ttlMs, cacheScope };
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
