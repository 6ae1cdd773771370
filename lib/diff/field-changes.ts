import { isObject, jsonEqual, jsonKeys, joinPointer, own } from "./json";
import type { FieldChange } from "./types";
import { diffText } from "./word-diff";

const TEXT_KEYS = new Set(["description", "title"]);
/** Deeper than this a changed subtree is reported as one replacement (no stack exhaustion on hostile input). */
const MAX_DEPTH = 64;

/**
 * Every changed JSON value between two documents, leaves first-class: objects are descended key
 * by key (sorted, so key order never shows), arrays of equal length element by element; anything
 * else that differs is one replacement at its pointer.
 */
export function fieldChanges(before: unknown, after: unknown, base = "", skipKeys?: ReadonlySet<string>): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, base, 0, out, skipKeys);
  return out;
}

/** Values this deep are hostile, not data: keep the report serialisable. */
const tooDeep = (v: unknown) => (typeof v === "object" && v !== null ? `(nested deeper than ${MAX_DEPTH} levels)` : v);

function walk(before: unknown, after: unknown, pointer: string, depth: number, out: FieldChange[], skip?: ReadonlySet<string>): void {
  if (jsonEqual(before, after)) return;
  if (depth < MAX_DEPTH && isObject(before) && isObject(after)) {
    const keys = [...new Set([...jsonKeys(before), ...jsonKeys(after)])].sort();
    for (const key of keys) {
      if (depth === 0 && skip?.has(key)) continue;
      const p = joinPointer(pointer, key);
      const bv = own(before, key);
      const av = own(after, key);
      if (av === undefined) out.push({ pointer: p, op: "remove", before: bv });
      else if (bv === undefined) out.push({ pointer: p, op: "add", after: av });
      else walk(bv, av, p, depth + 1, out);
    }
    return;
  }
  if (depth < MAX_DEPTH && Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    for (let i = 0; i < before.length; i++) walk(before[i], after[i], joinPointer(pointer, i), depth + 1, out);
    return;
  }
  const change: FieldChange = depth < MAX_DEPTH ? { pointer, op: "replace", before, after } : { pointer, op: "replace", before: tooDeep(before), after: tooDeep(after) };
  const key = pointer.slice(pointer.lastIndexOf("/") + 1);
  if (TEXT_KEYS.has(key) && typeof before === "string" && typeof after === "string") change.words = diffText(before, after);
  out.push(change);
}
