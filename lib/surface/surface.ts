// Content addressing of the text a server offers besides its tools (see surface-keys.ts). Pure, Node only.
import { createHash } from "node:crypto";
import { canonicalJson, HASH_SCHEME, hashToolList } from "@/lib/hash/canonical-hash";
import type { SurfaceItem, SurfaceItemJson, SurfaceKind, SurfaceListing } from "./surface-keys";

export * from "./surface-keys";

/** Content address of one item. The kind is part of it, so a prompt never shares a row with an identical tool. */
export function hashSurfaceItem(kind: SurfaceKind, definition: unknown): string {
  return `${HASH_SCHEME}:${createHash("sha256").update(canonicalJson({ kind, definition }), "utf8").digest("hex")}`;
}

/** Every item of a listing, in server order: prompts, resources, templates, then instructions. */
export function surfaceItems(surface: SurfaceListing | undefined | null): SurfaceItem[] {
  if (!surface) return [];
  const out: SurfaceItem[] = [];
  const add = (kind: SurfaceKind, list: SurfaceItemJson[] | null) => {
    for (const definition of list ?? []) out.push({ kind, name: definition.name, hash: hashSurfaceItem(kind, definition), definition });
  };
  add("prompt", surface.prompts);
  add("resource", surface.resources);
  add("resource_template", surface.resourceTemplates);
  if (surface.instructions) {
    const definition = { name: "instructions", text: surface.instructions };
    out.push({ kind: "instructions", name: "instructions", hash: hashSurfaceItem("instructions", definition), definition });
  }
  return out;
}

/** Address of the whole surface; null when there is nothing besides tools (so a tools-only server keeps its old hashes). */
export function hashSurface(items: readonly SurfaceItem[]): string | null {
  if (items.length === 0) return null;
  return hashToolList(items.map((i) => ({ name: `${i.kind}\u0000${i.name}`, hash: i.hash })));
}

/**
 * A snapshot's content address: the tool list's alone when the server offers nothing else
 * (unchanged for every server that predates surfaces), else both together.
 */
export function combineContentHash(toolsHash: string, surfaceHash: string | null): string {
  if (surfaceHash === null) return toolsHash;
  return hashToolList([{ name: "tools", hash: toolsHash }, { name: "surface", hash: surfaceHash }]);
}

/** The raw lists of a snapshot's stored items, grouped back by kind (the CLI's and API's shape). */
export function groupSurface(items: ReadonlyArray<{ kind: string; definition: unknown }>, advertised?: Partial<Record<"prompts" | "resources", boolean>>): SurfaceListing {
  const of = (kind: SurfaceKind) => items.filter((i) => i.kind === kind).map((i) => i.definition as SurfaceItemJson);
  const instructions = items.find((i) => i.kind === "instructions")?.definition as { text?: unknown } | undefined;
  const prompts = of("prompt");
  const resources = of("resource");
  const templates = of("resource_template");
  return {
    prompts: prompts.length || advertised?.prompts ? prompts : null,
    resources: resources.length || advertised?.resources ? resources : null,
    resourceTemplates: templates.length || advertised?.resources ? templates : null,
    instructions: typeof instructions?.text === "string" ? instructions.text : null,
  };
}
