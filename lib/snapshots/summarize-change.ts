import type { Tx } from "../db";
import { diffToolLists, type DiffSummary, type ToolLike } from "../diff";

export type StoredDiffSummary = DiffSummary & { orderOnly: boolean };

/**
 * The change of a new listing against the previous snapshot, stored with the snapshot so the
 * timeline shows +/−/~ and the highest level without diffing on every page view. Only tools
 * whose (name, hash) differ are loaded and diffed: a one-tool change of a 500-tool server reads
 * one old definition, not 500.
 */
export async function summarizeChange(
  tx: Tx,
  tenantId: string,
  previousIds: readonly string[],
  next: ReadonlyArray<{ name: string; hash: string; tool: ToolLike }>,
): Promise<StoredDiffSummary> {
  const previous = await tx.toolVersion.findMany({ where: { tenantId, id: { in: [...new Set(previousIds)] } }, select: { id: true, hash: true, name: true } });
  const byId = new Map(previous.map((v) => [v.id, v]));
  const before = previousIds.map((id) => byId.get(id)!).filter(Boolean);
  const key = (t: { name: string; hash: string }) => `${t.name}\u0000${t.hash}`;
  const nextKeys = new Set(next.map(key));
  const beforeKeys = new Set(before.map(key));
  const goneIds = before.filter((t) => !nextKeys.has(key(t))).map((t) => t.id);
  const arrived = next.filter((t) => !beforeKeys.has(key(t))).map((t) => t.tool);
  const unchanged = next.length - arrived.length;
  const gone = goneIds.length
    ? (await tx.toolVersion.findMany({ where: { tenantId, id: { in: goneIds } }, select: { definition: true } })).map((r) => r.definition as ToolLike)
    : [];
  const diff = diffToolLists(gone, arrived);
  const sameMembers = gone.length === 0 && arrived.length === 0;
  const orderOnly = sameMembers && before.map(key).join("\n") !== next.map(key).join("\n");
  return { ...diff.summary, unchanged, orderOnly };
}
