/**
 * Cursor pagination for hand-written `tools/list` handlers. The v2 `McpServer`
 * always returns the whole list in one page, so servers that want to exercise a
 * client's page walk install their own handler and use this helper.
 *
 * Cursors are opaque base64url blobs that bind the offset to a list revision: when
 * the list changes, cursors handed out for the old revision stop working and the
 * request fails with JSON-RPC -32602, which is what the spec asks for ("invalid
 * cursor SHOULD → Invalid params") and tells the client to restart from page 1
 * instead of stitching pages from two different lists.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

interface CursorBody {
  /** Which list this cursor belongs to (e.g. "catalog.tools"). */
  s: string;
  /** Revision of the list when the cursor was issued. */
  r: string;
  /** Index of the first item of the requested page. */
  o: number;
}

function encodeCursor(body: CursorBody): string {
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): CursorBody | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { s, r, o } = parsed as Record<string, unknown>;
    if (typeof s !== "string" || typeof r !== "string" || typeof o !== "number") return undefined;
    return { s, r, o };
  } catch {
    return undefined;
  }
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Slice `items` into the page addressed by `cursor`.
 * `pageSize` of 0/undefined disables pagination (whole list, no cursor).
 * @throws ProtocolError -32602 for a cursor that was not issued for this scope/revision.
 */
export function paginate<T>(
  items: readonly T[],
  opts: { cursor: string | undefined; pageSize: number | undefined; scope: string; revision: string },
): Page<T> {
  const { cursor, scope, revision } = opts;
  const pageSize = opts.pageSize && opts.pageSize > 0 ? Math.floor(opts.pageSize) : items.length || 1;
  let offset = 0;
  if (cursor !== undefined) {
    const body = decodeCursor(cursor);
    const valid = body && body.s === scope && body.r === revision && Number.isInteger(body.o) && body.o > 0 && body.o < items.length;
    if (!valid) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired cursor; restart listing without a cursor", {
        cursor,
      });
    }
    offset = body.o;
  }
  const end = offset + pageSize;
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeCursor({ s: scope, r: revision, o: end }) : undefined,
  };
}
