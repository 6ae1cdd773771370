// RFC 6901 pointers into a tool definition, resolved in the browser (findings name the string they
// matched by pointer and UTF-16 offsets; the page needs that string to show the match in context).

export function pointerSegments(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at `pointer`, or undefined when the path does not exist. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) node = /^\d+$/.test(segment) ? node[Number(segment)] : undefined;
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, segment)) node = (node as Record<string, unknown>)[segment];
    else return undefined;
  }
  return node;
}
