import type { ServiceContext } from "@/lib/context";
import { assertLeaseHeld } from "@/lib/workers/leases";
import { lockServer } from "./alert-store";
import { Evaluation, type EvaluationResult } from "./evaluation";
import { loadBaselines, loadCurrentSurface, loadCurrentTools, loadSnapshots, loadUnresolvedAlerts } from "./evaluation-state";
import { parseItemKey } from "@/lib/surface/surface-keys";
import { evaluateCollapse } from "./evaluate-list";
import { evaluateCollisions } from "./name-collisions";
import { indexedNames, syncToolNameIndex } from "./tool-name-index";
import { evaluateRemovals, evaluateTools } from "./evaluate-tools";

export type { EvaluationResult } from "./evaluation";

export type EvaluateSnapshotInput = {
  serverId: string;
  /**
   * "created": a new snapshot was recorded — every rule runs. "confirmed": an unchanged re-list —
   * a catch-up that judges only what no baseline or alert covers yet (e.g. a worker died between
   * recording a snapshot and evaluating it); list-level rules, which are about a change, do not run.
   */
  trigger?: "created" | "confirmed";
  /** When set, the evaluation only commits while this worker holds the server's lease. */
  leaseHolder?: string;
};

/**
 * Judges the server's latest snapshot against each tool's approved baseline (ToolBaseline) and
 * opens, updates or resolves alerts. One transaction under the same per-server lock as snapshot
 * writes and reviewer decisions; every alert change NOTIFYs the team's browsers (alert:changed) and
 * openings, escalations and recoveries queue webhook deliveries, in that transaction.
 *
 * Per tool (evaluate-tools.ts, judge.ts):
 * - no baseline: trust_first pins this version ("first_seen") and opens `suspicious_content` only if
 *   its content scores high or worse; strict records a pending baseline and opens `tool_added`.
 * - at its baseline: nothing (an open alert about it is resolved "superseded").
 * - otherwise: a description-only edit that introduces no cue class is auto-accepted ("auto_accepted",
 *   audit event, no alert) unless the tool is blocked; anything else opens or updates the tool's one
 *   unresolved alert: `suspicious_content` (content findings high+), else `breaking_change` (a diff
 *   ERR), else `tool_changed`; severity = max(aggregated findings, ERR→high / WARN→medium / INFO→low),
 *   one level higher for a silent change (R29).
 * - gone: `tool_removed` (low); the baseline stays.
 * Prompts, resources, templates and the instructions go through the same per-tool rules under their
 * keys ("prompt summarize"); list-level rules and the name index stay about tools.
 * Per list (evaluate-list.ts): `list_collapsed` (high, R32) instead of a removal per tool, resolved
 * when at least half the tools are back. Then the team's tool-name index takes this list, and each
 * name that joined or left updates the team's one `name_collision` alert for it (name-collisions.ts).
 */
// internal-writer: the worker's evaluation of a recorded snapshot (system actor); no one to authorize
export async function evaluateSnapshot(ctx: ServiceContext, input: EvaluateSnapshotInput): Promise<EvaluationResult> {
  const detect = (input.trigger ?? "created") === "created";
  return ctx.db.$transaction(
    async (tx) => {
      await lockServer(tx, input.serverId);
      if (input.leaseHolder) await assertLeaseHeld(tx, input.serverId, input.leaseHolder);
      const server = await tx.mcpServer.findFirst({ where: { id: input.serverId, tenantId: ctx.tenantId }, select: { id: true, name: true, auditPolicy: true } });
      const { latest, previous, previousCounts } = server ? await loadSnapshots(tx, ctx.tenantId, server.id) : { latest: null, previous: null, previousCounts: [] };
      if (!server || !latest) return { snapshotId: null, pinned: [], autoAccepted: [], opened: [], updated: [], resolved: [] };
      const [current, surface, baselines, unresolved] = await Promise.all([
        loadCurrentTools(tx, ctx.tenantId, latest.toolVersionIds),
        loadCurrentSurface(tx, ctx.tenantId, latest.surfaceVersionIds),
        loadBaselines(tx, ctx.tenantId, server.id),
        loadUnresolvedAlerts(tx, ctx.tenantId, server.id),
      ]);
      const ev = new Evaluation(tx, ctx, server, latest, baselines, unresolved);
      await evaluateCollapse(ev, current, { previousToolVersionIds: previous?.toolVersionIds ?? null, previousCounts }, detect);
      // Prompts, resources, templates and instructions are judged like tools under their keys
      // ("prompt summarize"); a snapshot that did not look at them says nothing about their removal.
      await evaluateTools(ev, [...current, ...surface]);
      await evaluateRemovals(ev, [...current, ...surface], latest.surfaceTracked ? undefined : (name) => parseItemKey(name) !== null);
      // Last, so the per-name locks it takes are held only until commit, not through the scans.
      const change = await syncToolNameIndex(tx, ctx.tenantId, server.id, current, await indexedNames(tx, ctx.tenantId, server.id));
      await evaluateCollisions(ev, [...change.added, ...change.removed]);
      // Judged: an unchanged re-list of this snapshot needs no catch-up (commits with the judgement).
      await tx.snapshot.update({ where: { id: latest.id }, data: { evaluated: true } });
      return ev.result;
    },
    // Scanning a large list takes CPU time inside the transaction; the default 5 s is too tight on a busy host.
    { timeout: 60_000, maxWait: 15_000 },
  );
}
