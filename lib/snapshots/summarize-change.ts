import { diffToolLists, type DiffSummary, type ToolLike } from "../diff";

export type StoredDiffSummary = DiffSummary & { orderOnly: boolean };

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
