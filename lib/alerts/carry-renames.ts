// Rename evasion: a server whose changed tool raised an alert could rename the tool, so the alert
// would be "superseded" by the removal and the new name pinned as first seen (trust_first). A tool
// that arrives with exactly the content (everything but its name) of a tool that left in the same
// list, or of the version its open alert is about, is that tool renamed: its baseline and open
// alert move to the new name, so the new name is judged against the last approved version (the
// diff shows the rename and anything else) and the alert stays open.
import canonicalize from "canonicalize";
import type { ToolLike } from "@/lib/detection";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { dedupeKeyFor, json } from "./alert-store";
import type { AlertDetails } from "./alert-dto";
import type { Evaluation } from "./evaluation";
import { loadDefinitions, type CurrentTool } from "./evaluation-state";

/** What a tool is, apart from what it is called. */
const contentKey = (def: ToolLike): string => canonicalize({ ...def, name: "" }) ?? "";

/** Moves baselines and open alerts of renamed tools; returns the renames (old → new) it carried. */
// internal-writer: runs in the worker's evaluation transaction (system actor); audited as baseline.renamed
export async function carryRenames(ev: Evaluation, current: readonly CurrentTool[]): Promise<Array<{ from: string; to: string }>> {
  const names = new Set(current.map((t) => t.name));
  const vanished = [...ev.baselines.values()].filter((b) => !names.has(b.toolName));
  const arrivals = current.filter((t) => !ev.baselines.has(t.name));
  if (vanished.length === 0 || arrivals.length === 0) return [];

  // The versions a vanished tool could have been renamed from: its approved one and the one its open alert is about.
  const fromHashes = vanished.map((b) => [b.approvedHash, ev.versionAlert(b.toolName)?.candidateHash ?? null].filter((h): h is string => h !== null));
  const defs = await loadDefinitions(ev.tx, ev.tenantId, [...arrivals.map((t) => t.hash), ...fromHashes.flat()]);
  const keyOf = (hash: string) => (defs.has(hash) ? contentKey(defs.get(hash)!) : null);
  const byKey = new Map<string, number>();
  vanished.forEach((_, i) => {
    for (const hash of fromHashes[i]!) {
      const key = keyOf(hash);
      if (key !== null && !byKey.has(key)) byKey.set(key, i);
    }
  });

  const carried: Array<{ from: string; to: string }> = [];
  const taken = new Set<number>();
  for (const tool of arrivals) {
    const key = keyOf(tool.hash);
    const i = key === null ? undefined : byKey.get(key);
    if (i === undefined || taken.has(i)) continue;
    taken.add(i);
    const baseline = vanished[i]!;
    const from = baseline.toolName;
    const moved = await ev.tx.toolBaseline.update({ where: { id: baseline.id }, data: { toolName: tool.name } });
    ev.baselines.delete(from);
    ev.baselines.set(tool.name, moved);
    const alert = ev.versionAlert(from);
    if (alert) {
      const details = { ...((alert.details ?? {}) as AlertDetails), renamedFrom: from };
      await ev.tx.alert.update({ where: { id: alert.id }, data: { toolName: tool.name, dedupeKey: dedupeKeyFor(alert.kind, tool.name), details: json(details) } });
      Object.assign(alert, { toolName: tool.name, dedupeKey: dedupeKeyFor(alert.kind, tool.name), details });
    }
    await recordAudit(ev.tx, ev.ctx, "baseline.renamed", { type: "server", id: ev.server.id }, { server: ev.server.name, from, to: tool.name, snapshotId: ev.snapshot.id, alertId: alert?.id ?? null });
    ev.renames.set(tool.name, from);
    carried.push({ from, to: tool.name });
  }
  return carried;
}
