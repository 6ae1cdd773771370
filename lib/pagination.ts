// One keyset-pagination scheme for every list the API serves (servers, snapshots, alerts, audit
// log, webhook deliveries). A cursor is opaque to clients: base64url of JSON
// `{k: <list and order it was issued for>, v: [<sort key values…>, <id>]}`. The id is always the
// last key so rows with equal sort keys are neither skipped nor repeated across pages. The `k` tag
// makes a cursor from another list or another sort order a 400 instead of a silently wrong page;
// a cursor never widens what a query may read (every query still filters by the caller's team).
import { z } from "zod";
import { AppError } from "./errors";

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 500;

/** `limit` and `cursor` as every list endpoint accepts them (merge into the list's own query schema). */
export const PageParams = {
  limit: z.coerce.number().int().min(1, `limit is at least 1`).max(MAX_PAGE_LIMIT, `limit is at most ${MAX_PAGE_LIMIT}`).default(DEFAULT_PAGE_LIMIT),
  /** Opaque: the previous page's nextCursor. */
  cursor: z.string().min(1).max(2_000).optional(),
};

export type CursorValue = string | number | null;

/** Each position of a cursor's values: what it must decode to. */
export type CursorField = "string" | "number" | "date" | "uuid" | "bigint" | "nullable-string" | "nullable-number" | "nullable-date";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(kind: string, values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify({ k: kind, v: values })).toString("base64url");
}

function badCursor(): AppError {
  return new AppError("INVALID_INPUT", "cursor: not a cursor this list returned", { fields: { cursor: "not a cursor this list returned" } });
}

function checkValue(field: CursorField, value: unknown): boolean {
  if (value === null) return field.startsWith("nullable-");
  const base = field.replace("nullable-", "");
  if (base === "number") return typeof value === "number" && Number.isFinite(value);
  if (typeof value !== "string") return false;
  if (base === "date") return !Number.isNaN(Date.parse(value));
  if (base === "uuid") return UUID.test(value);
  if (base === "bigint") return /^[1-9]\d{0,18}$/.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n;
  return true;
}

/** The values of a cursor issued for `kind`, checked against `fields`; anything else is a 400 naming `cursor`. */
export function decodeCursor(raw: string, kind: string, fields: readonly CursorField[]): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  const body = parsed as { k?: unknown; v?: unknown };
  if (typeof parsed !== "object" || parsed === null || body.k !== kind || !Array.isArray(body.v)) throw badCursor();
  const values = body.v as unknown[];
  if (values.length !== fields.length || !fields.every((f, i) => checkValue(f, values[i]))) throw badCursor();
  return values as CursorValue[];
}

export type Page<T> = { items: T[]; nextCursor: string | null };

/**
 * Rows fetched with `take: limit + 1` → one page: the extra row only says there is more; the
 * cursor holds the last returned row's keys.
 */
export function toPage<R, T>(rows: R[], limit: number, kind: string, keysOf: (row: R) => CursorValue[], map: (row: R) => T): Page<T> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(map), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(kind, keysOf(last)) : null };
}
