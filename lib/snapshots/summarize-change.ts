import { diffSurface, diffToolLists, highestLevel, summarizeSurface, type DiffSummary, type SurfaceDiffSummary, type ToolLike } from "@/lib/diff";
import type { SurfaceItem } from "@/lib/surface/surface";

/**
 * `highest` covers tools and surface; `surface` is present when both snapshots listed the surface
 * (prompts, resources, templates, instructions) and it changed.
 */
export type StoredDiffSummary = DiffSummary & { orderOnly: boolean; surface?: SurfaceDiffSummary };

export type GoneSurfaceItem = { kind: string; name: string; hash: string; definition: Record<string, unknown> };

/**
 * The surface's change, from the previous (kind, name, hash) keys and the definitions of only the
 * previous items not in the new list, like the tools below. Null when nothing changed.
 */
export function summarizeSurfaceChange(before: ReadonlyArray<readonly [kind: string, name: string, hash: string]>, gone: readonly GoneSurfaceItem[], next: readonly SurfaceItem[]): SurfaceDiffSummary | null {
  const had = new Set(before.map(([kind, name, hash]) => `${kind}\u0000${name}\u0000${hash}`));
  const arrived = next.filter((i) => !had.has(`${i.kind}\u0000${i.name}\u0000${i.hash}`));
  const changes = diffSurface(gone, arrived);
  return changes.length ? summarizeSurface(changes) : null;
}

/** A tool summary with the surface's change folded in (the snapshot's one highest level). */
export function withSurface(summary: StoredDiffSummary, surface: SurfaceDiffSummary | null): StoredDiffSummary {
  if (!surface) return summary;
  return { ...summary, surface, highest: highestLevel([summary.highest, surface.highest].filter((l) => l !== null)) };
}

/**
 * The change of a new listing against the previous snapshot, stored with the snapshot so the
 * timeline shows +/−/~ and the highest level without diffing on every page view. Pure: the caller
 * passes the previous (name, hash) pairs in order and the definitions of only the previous tools
 * whose (name, hash) is not in the new list, so a one-tool change of a 500-tool server diffs one
 * old definition, not 500.
 */
export function summarizeChange(
  before: ReadonlyArray<readonly [name: string, hash: string]>,
  gone: readonly ToolLike[],
  next: ReadonlyArray<{ name: string; hash: string; tool: ToolLike }>,
): StoredDiffSummary {
  const key = (name: string, hash: string) => `${name}\u0000${hash}`;
  const beforeKeys = before.map(([name, hash]) => key(name, hash));
  const nextKeys = next.map((t) => key(t.name, t.hash));
  const beforeSet = new Set(beforeKeys);
  const arrived = next.filter((t) => !beforeSet.has(key(t.name, t.hash))).map((t) => t.tool);
  const unchanged = next.length - arrived.length;
  const diff = diffToolLists(gone, arrived);
  const sameMembers = gone.length === 0 && arrived.length === 0;
  const orderOnly = sameMembers && beforeKeys.join("\n") !== nextKeys.join("\n");
  return { ...diff.summary, unchanged, orderOnly };
}
