// List-level rule: the list collapsing (R32). (Name collisions across servers: name-collisions.ts.)
import { atLeast, scanChange } from "@/lib/detection";
import type { AlertDetails } from "./alert-dto";
import type { Evaluation } from "./evaluation";
import { loadCurrentTools, type CurrentTool } from "./evaluation-state";

const MAX_NAMES = 200;

/**
 * Opens `list_collapsed` (high) when R32 says the list collapsed to zero or dropped sharply
 * against the previous snapshots, and resolves it ("recovered", webhooks told) once the list is
 * back to at least half of what it was. While it is unresolved, removals are not reported one by one.
 */
export async function evaluateCollapse(ev: Evaluation, current: readonly CurrentTool[], history: { previousToolVersionIds: string[] | null; previousCounts: number[] }, detect: boolean): Promise<void> {
  const active = ev.unresolvedOf("list_collapsed", null);
  if (active) {
    const fromCount = ((active.details ?? {}) as AlertDetails).collapse?.fromCount ?? 1;
    if (detect && current.length > 0 && current.length >= Math.ceil(fromCount / 2)) await ev.resolve(active, "recovered", { notify: true });
    else ev.collapseActive = true;
    return;
  }
  if (!detect || history.previousToolVersionIds === null) return;
  const before = await loadCurrentTools(ev.tx, ev.tenantId, history.previousToolVersionIds);
  // Counts are all R32 needs: names alone keep this cheap on big lists.
  const findings = scanChange({
    before: before.map((t) => ({ name: t.name })),
    after: current.map((t) => ({ name: t.name })),
    notified: ev.snapshot.notified,
    serverVersionChanged: ev.snapshot.serverVersionChanged,
    previousCounts: history.previousCounts,
  }).filter((f) => f.ruleId === "R32" && atLeast(f.severity, "medium"));
  if (findings.length === 0) return;
  const now = new Set(current.map((t) => t.name));
  const removed = before.filter((t) => !now.has(t.name)).map((t) => t.name);
  await ev.open({
    kind: "list_collapsed",
    severity: "high",
    title: `Tool list collapsed from ${before.length} to ${current.length}`,
    findings: findings.map((f) => ({ ...f, source: "audit" as const })),
    details: { collapse: { fromCount: before.length, toCount: current.length, removed: removed.slice(0, MAX_NAMES) } },
  });
  ev.collapseActive = true;
}
