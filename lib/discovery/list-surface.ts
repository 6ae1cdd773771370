import { DiscoveryError } from "./discovery-error";
import type { SurfaceItemJson, SurfaceListing } from "@/lib/surface/surface-keys";
import { invalidItemReason, walkListPages, type ItemListing, type ListSpec, type RawPage, type WalkOptions } from "./walk-tool-pages";

const PROMPTS: ListSpec = { method: "prompts/list", itemsKey: "prompts", invalidReason: (item) => invalidItemReason(item, "prompt") };
const RESOURCES: ListSpec = { method: "resources/list", itemsKey: "resources", invalidReason: (item) => invalidItemReason(item, "resource", "uri") };
const TEMPLATES: ListSpec = { method: "resources/templates/list", itemsKey: "resourceTemplates", invalidReason: (item) => invalidItemReason(item, "template", "uriTemplate") };

const METHOD_NOT_FOUND = -32601;

/** What the surface walk adds to a listing: the lists, and cache hints folded like the tool pages' (minimum TTL, private wins). */
export type SurfaceWalk = {
  surface: SurfaceListing;
  pages: number;
  ttlMs: number | null;
  cacheScope: "public" | "private" | null;
  warnings: string[];
};

/**
 * Lists prompts, resources and resource templates, every page, but only those the server
 * advertises (capabilities.prompts / capabilities.resources): a tools-only server costs no extra
 * round trip. Resource CONTENTS are never read (no resources/read). A server that advertises
 * resources but has no templates endpoint (-32601) simply has no templates.
 */
export async function listSurface(
  capabilities: Record<string, unknown> | null,
  instructions: string | null,
  fetchPage: (method: string, cursor: string | undefined) => Promise<RawPage>,
  opts: WalkOptions,
): Promise<SurfaceWalk> {
  const out: SurfaceWalk = { surface: { prompts: null, resources: null, resourceTemplates: null, instructions: instructions || null }, pages: 0, ttlMs: null, cacheScope: null, warnings: [] };
  const walk = async (spec: ListSpec, optional = false): Promise<SurfaceItemJson[] | null> => {
    let listing: ItemListing<SurfaceItemJson>;
    try {
      listing = await walkListPages<SurfaceItemJson>(spec, (cursor) => fetchPage(spec.method, cursor), opts);
    } catch (error) {
      if (optional && (error as { code?: unknown }).code === METHOD_NOT_FOUND) return [];
      if (error instanceof DiscoveryError) throw error;
      throw withMethod(error, spec.method);
    }
    out.pages += listing.pages;
    if (listing.ttlMs !== null) out.ttlMs = out.ttlMs === null ? listing.ttlMs : Math.min(out.ttlMs, listing.ttlMs);
    if (listing.cacheScope === "private" || (listing.cacheScope === "public" && out.cacheScope === null)) out.cacheScope = listing.cacheScope;
    for (const d of listing.dropped) out.warnings.push(`${spec.method}: dropped item ${d.index} of page ${d.page}: ${d.reason}`);
    if (listing.duplicateNames.length) out.warnings.push(`DUPLICATE_NAMES in ${spec.method}: ${listing.duplicateNames.join(", ")}`);
    return listing.items;
  };
  if (capabilities?.prompts) out.surface.prompts = await walk(PROMPTS);
  if (capabilities?.resources) {
    out.surface.resources = await walk(RESOURCES);
    out.surface.resourceTemplates = await walk(TEMPLATES, true);
  }
  return out;
}

function withMethod(error: unknown, method: string): unknown {
  if (error instanceof Error && !error.message.includes(method)) error.message = `${method}: ${error.message}`;
  return error;
}
