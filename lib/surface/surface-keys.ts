// Names and shapes of the text a server offers an agent besides its tools: prompts, resources,
// resource templates and the server's instructions. Isomorphic (browser-safe): no I/O, no node:*.
export type SurfaceKind = "prompt" | "resource" | "resource_template" | "instructions";
export const SURFACE_KINDS: readonly SurfaceKind[] = ["prompt", "resource", "resource_template", "instructions"];

/** How people read the kind ("prompt summarize", "template files"): alert titles, timeline lines, findings. */
export const KIND_LABEL: Record<SurfaceKind, string> = { prompt: "prompt", resource: "resource", resource_template: "template", instructions: "instructions" };

export type SurfaceItemJson = { name: string } & Record<string, unknown>;

/**
 * What a listing saw besides tools. A list is null when the server does not advertise its
 * capability (it was not asked); instructions null when the server sent none.
 */
export type SurfaceListing = {
  prompts: SurfaceItemJson[] | null;
  resources: SurfaceItemJson[] | null;
  resourceTemplates: SurfaceItemJson[] | null;
  instructions: string | null;
};

export const EMPTY_SURFACE: SurfaceListing = { prompts: null, resources: null, resourceTemplates: null, instructions: null };

/** One stored item: its kind, its name (the key it is matched by), content address and raw JSON. */
export type SurfaceItem = { kind: SurfaceKind; name: string; hash: string; definition: SurfaceItemJson };

/**
 * The key an item is judged and alerted under, beside tool names ("prompt summarize",
 * "instructions"). A tool literally named "prompt summarize" would share it; tool names may not
 * contain spaces under the 2025-11-25 naming guidance, so only a non-conforming server can do that.
 */
export function itemKey(kind: SurfaceKind, name: string): string {
  return kind === "instructions" ? "instructions" : `${KIND_LABEL[kind]} ${name}`;
}

/** The reverse of itemKey for display: null for a plain tool name. */
export function parseItemKey(key: string): { kind: SurfaceKind; name: string } | null {
  if (key === "instructions") return { kind: "instructions", name: "instructions" };
  const space = key.indexOf(" ");
  if (space < 0) return null;
  const label = key.slice(0, space);
  const kind = SURFACE_KINDS.find((k) => KIND_LABEL[k] === label);
  return kind ? { kind, name: key.slice(space + 1) } : null;
}
