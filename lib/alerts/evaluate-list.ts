// List-level rules: the list collapsing (R32), and the same tool name on two of the team's servers.
import { atLeast, scanChange } from "../audit";
import type { AlertDetails } from "./alert-dto";
import { quoteName } from "./alert-store";
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

/**
 * One `name_collision` (medium) per tool name and pair of servers, ever: the alert goes on the
 * server where the name appeared second, lists every other server offering it, and a pair that
 * was already reported (on either side, whatever its status) is not reported again.
 */
export async function evaluateCollisions(ev: Evaluation, current: readonly CurrentTool[]): Promise<void> {
  const names = new Set(current.map((t) => t.name));
  const partners = new Map<string, { serverId: string; serverName: string }[]>();
  for (const other of await ev.otherServers()) {
    const seen = new Set<string>();
    for (const tool of other.tools) {
      const name = String(tool.name);
      if (!names.has(name) || seen.has(name)) continue;
      seen.add(name);
      partners.set(name, [...(partners.get(name) ?? []), { serverId: other.serverId, serverName: other.serverName }]);
    }
  }
  if (partners.size === 0) return;
  const earlier = await ev.tx.alert.findMany({
    where: { tenantId: ev.tenantId, kind: "name_collision", toolName: { in: [...partners.keys()] } },
    select: { id: true, serverId: true, toolName: true, status: true, severity: true, details: true },
  });
  for (const [name, others] of partners) {
    const known = new Set<string>();
    for (const a of earlier.filter((x) => x.toolName === name)) {
      const listed = ((a.details ?? {}) as AlertDetails).collisions ?? [];
      if (a.serverId === ev.server.id) listed.forEach((c) => known.add(c.serverId));
      else if (listed.some((c) => c.serverId === ev.server.id)) known.add(a.serverId);
    }
    const fresh = others.filter((o) => !known.has(o.serverId));
    if (fresh.length === 0) continue;
    const open = ev.unresolvedOf("name_collision", name);
    if (open) {
      const listed = ((open.details ?? {}) as AlertDetails).collisions ?? [];
      const collisions = [...listed, ...fresh];
      await ev.update(open, { title: collisionTitle(name, collisions), details: { ...(open.details as AlertDetails), collisions } });
      continue;
    }
    await ev.open({ kind: "name_collision", severity: "medium", title: collisionTitle(name, fresh), toolName: name, details: { collisions: fresh } });
  }
}

function collisionTitle(name: string, collisions: { serverName: string }[]): string {
  const where = collisions.slice(0, 3).map((c) => c.serverName).join(", ") + (collisions.length > 3 ? ` and ${collisions.length - 3} more` : "");
  return `${quoteName(name)} is also offered by ${where}`;
}
