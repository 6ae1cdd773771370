// RFC 6901 JSON Pointers: "" is the whole document, "/" is the member named "" (not the root),
// "~1" is "/" and "~0" is "~" (decoded in that order). Findings and diffs name the string they
// concern by pointer, so the server's JSON and the browser must agree on what a pointer means.

/** One reference token, escaped. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The reference tokens of a pointer, unescaped; null when it is not a pointer (no leading "/"). */
export function pointerTokens(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

// An array index is "0" or digits without a leading zero; "-" (past the end) never resolves.
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** The value a pointer refers to, or undefined when there is none (or the pointer is malformed). */
export function resolvePointer(root: unknown, pointer: string): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens === null) return undefined;
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) node = ARRAY_INDEX.test(token) ? node[Number(token)] : undefined;
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}
