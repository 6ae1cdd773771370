import { hash } from "node:crypto";
import canonicalize from "canonicalize";

// Content addresses carry their scheme, so a future change of canonicalisation or digest can
// never be mistaken for drift in a server's tools.
export const HASH_SCHEME = "jcs-sha256";

/** RFC 8785 (JCS) canonical JSON: key order and number formatting no longer matter. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("Value cannot be canonicalised as JSON");
  return text;
}

function digest(text: string): string {
  // One-shot hash: a listing hashes every tool, and a Hash object per call cost more than the digest.
  return `${HASH_SCHEME}:${hash("sha256", text, "hex")}`;
}

/** Address of one tool definition, exactly as the server sent it. */
export function hashTool(tool: unknown): string {
  return digest(canonicalJson(tool));
}

/**
 * Address of a whole list. The list is a set keyed by tool name: servers need not keep a stable
 * order (only 2026-07-28 asks them to), so order alone must not look like a change. Duplicate
 * names stay as separate entries (sorted by their own hash) so they are not hidden.
 */
export function hashToolList(toolHashes: ReadonlyArray<{ name: string; hash: string }>): string {
  const entries = toolHashes
    .map((t) => [t.name, t.hash] as const)
    .sort((a, b) => (a[0] === b[0] ? cmp(a[1], b[1]) : cmp(a[0], b[0])));
  return digest(canonicalJson(entries));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
