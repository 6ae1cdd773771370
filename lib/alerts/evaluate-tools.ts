// Tool-level rules: every tool of the latest snapshot against its baseline, and baseline tools
// that are gone. Idempotent: a tool already at its baseline, or already the candidate of its open
// alert, costs nothing, so re-running over the same snapshot changes nothing.
import { scanTools, type AuditFinding, type ToolLike } from "@/lib/detection";
import { recordAudit } from "@/lib/audit-log/record-audit";
import type { Alert, ToolBaseline } from "@/lib/generated/prisma/client";
import { SYSTEM_ACTOR, titleFor, type Evaluation } from "./evaluation";
import { BASELINE_COLUMNS, loadDefinitions, type CurrentTool } from "./evaluation-state";
import { carryRenames } from "./carry-renames";
import { judgeChange, judgeNewTool, judgeWithoutBaseline } from "./judge";

type Work = { tool: CurrentTool; baseline: ToolBaseline | undefined; firstSeen?: boolean };

export async function evaluateTools(ev: Evaluation, current: readonly CurrentTool[]): Promise<void> {
  // A renamed tool keeps its baseline and open alert (carry-renames.ts), before anything is judged.
  await carryRenames(ev, current);
  const work: Work[] = [];
  for (const tool of current) {
    // It came back: the removal no longer holds (the version itself is judged below).
    const removal = ev.unresolvedOf("tool_removed", tool.name);
    if (removal) await ev.resolve(removal, "superseded");
    const baseline = ev.baselines.get(tool.name);
    const alert = ev.versionAlert(tool.name);
    if (baseline?.approvedHash === tool.hash) {
      // Back to the approved version. (A suspicious first-seen version is pinned and under review
      // at once: its alert stays until a reviewer decides.)
      if (alert && alert.candidateHash !== tool.hash) await ev.resolve(alert, "superseded");
      continue;
    }
    if (alert?.candidateHash === tool.hash) continue; // a persisting state: its alert already says so
    work.push({ tool, baseline });
  }
  if (work.length === 0) return;

  // scanTools sees the list as a whole (length outliers, duplicates) and the team's other servers.
  const baselineHashes = work.flatMap((w) => (w.baseline?.approvedHash ? [w.baseline.approvedHash] : []));
  const defs = await loadDefinitions(ev.tx, ev.tenantId, [...current.map((t) => t.hash), ...baselineHashes]);
  const own = [...current.map((t) => t.hash), ...baselineHashes].flatMap((hash) => (defs.has(hash) ? [{ hash, definition: defs.get(hash)! }] : []));
  const others = await ev.crossPartners(own);
  const list = current.flatMap((t) => (defs.has(t.hash) ? [defs.get(t.hash)!] : []));
  const byTool = new Map<string, AuditFinding[]>();
  for (const f of scanTools(list, { otherServers: others })) {
    if (f.toolName === null) continue;
    const group = byTool.get(f.toolName);
    if (group) group.push(f);
    else byTool.set(f.toolName, [f]);
  }
  await pinFirstSeen(ev, work.filter((w) => !w.baseline && defs.has(w.tool.hash)));
  for (const w of work) {
    const candidate = defs.get(w.tool.hash);
    if (!candidate) continue;
    await judgeTool(ev, w, candidate, byTool.get(w.tool.name) ?? [], defs);
  }
}

/**
 * First-seen tools get their baseline rows in one statement (a new 50-tool server was 50 INSERTs
 * inside the evaluation's transaction): trust_first pins the version, strict leaves it pending.
 * judgeTool then finds `firstSeen` set and only decides whether an alert is needed.
 */
async function pinFirstSeen(ev: Evaluation, fresh: Work[]): Promise<void> {
  if (fresh.length === 0) return;
  const pending = ev.server.auditPolicy === "strict";
  const names = fresh.map((w) => w.tool.name);
  // One raw statement returning the rows instead of Prisma's createMany + findMany of 50 rows (see
  // lib/snapshots/tool-versions-by-id.ts); a name another evaluation pinned meanwhile is read back.
  const rows = await ev.tx.$queryRaw<ToolBaseline[]>`
    INSERT INTO tool_baseline (id, tenant_id, server_id, tool_name, approved_hash, source, approved_by, approved_at, updated_at)
    SELECT gen_random_uuid(), ${ev.tenantId}::uuid, ${ev.server.id}::uuid, f.name, CASE WHEN ${pending}::boolean THEN NULL ELSE f.hash END, 'first_seen',
           CASE WHEN ${pending}::boolean THEN NULL ELSE ${SYSTEM_ACTOR}::text END, CASE WHEN ${pending}::boolean THEN NULL ELSE now() END, now()
      FROM unnest(${names}::text[], ${fresh.map((w) => w.tool.hash)}::text[]) AS f(name, hash)
    ON CONFLICT (server_id, tool_name) DO NOTHING
    RETURNING ${BASELINE_COLUMNS}`;
  const missing = names.filter((n) => !rows.some((r) => r.toolName === n));
  if (missing.length) rows.push(...(await ev.tx.$queryRaw<ToolBaseline[]>`SELECT ${BASELINE_COLUMNS} FROM tool_baseline WHERE tenant_id = ${ev.tenantId}::uuid AND server_id = ${ev.server.id}::uuid AND tool_name = ANY(${missing}::text[])`));
  for (const row of rows) ev.baselines.set(row.toolName, row);
  for (const w of fresh) {
    w.firstSeen = true;
    if (!pending) ev.result.pinned.push(w.tool.name);
  }
}

async function judgeTool(ev: Evaluation, { tool, baseline, firstSeen }: Work, candidate: ToolLike, scan: AuditFinding[], defs: Map<string, ToolLike>): Promise<void> {
  const hashes = { candidateHash: tool.hash, baselineHash: baseline?.approvedHash ?? null };
  if (firstSeen || !baseline) {
    // First seen (its baseline was just written by pinFirstSeen). trust_first pinned it (and
    // raises only suspicious content); strict waits for approval.
    const verdict = judgeNewTool(scan, ev.server.auditPolicy === "strict");
    if (verdict.alert) await ev.openOrUpdate(tool.name, verdict, hashes);
    return;
  }
  if (baseline.approvedHash === null) {
    // Awaiting approval (strict), or its only trusted version was rejected: every version needs a reviewer.
    const verdict = judgeNewTool(scan, true);
    await ev.openOrUpdate(tool.name, { ...verdict, details: { ...verdict.details, blocked: baseline.blockedHash === tool.hash } }, hashes);
    return;
  }
  const before = defs.get(baseline.approvedHash);
  if (!before) {
    await ev.openOrUpdate(tool.name, judgeWithoutBaseline(scan), hashes);
    return;
  }
  const baselineScan = scanTools([before], { otherServers: await ev.crossPartners([]) });
  const verdict = judgeChange(before, candidate, scan, baselineScan, { notified: ev.snapshot.notified, serverVersionChanged: ev.snapshot.serverVersionChanged });
  // A blocked tool (a reviewer rejected a version) is never auto-accepted: a person decides.
  if (verdict.benign && baseline.blockedHash === null) {
    await autoAccept(ev, baseline, tool, verdict.details.classification?.reasons ?? []);
    return;
  }
  await ev.openOrUpdate(tool.name, { ...verdict, details: { ...verdict.details, blocked: baseline.blockedHash === tool.hash } }, hashes);
}

async function autoAccept(ev: Evaluation, baseline: ToolBaseline, tool: CurrentTool, reasons: string[]): Promise<void> {
  const row = await ev.tx.toolBaseline.update({
    where: { id: baseline.id },
    data: { approvedHash: tool.hash, source: "auto_accepted", approvedBy: SYSTEM_ACTOR, approvedAt: new Date() },
  });
  ev.baselines.set(tool.name, row);
  await recordAudit(ev.tx, ev.ctx, "baseline.auto_accepted", { type: "server", id: ev.server.id }, {
    server: ev.server.name,
    toolName: tool.name,
    fromHash: baseline.approvedHash,
    toHash: tool.hash,
    snapshotId: ev.snapshot.id,
    why: reasons.length ? reasons : ["description-only edit that introduced no suspicious cue class"],
  });
  ev.result.autoAccepted.push(tool.name);
  const alert = ev.versionAlert(tool.name);
  if (alert) await ev.resolve(alert, "auto_accepted");
}

/**
 * Baseline tools missing from the list: one `tool_removed` alert each (low), unless the whole list
 * collapsed (the list_collapsed alert names them). The baseline stays, so a return is judged
 * against it. A pending (never approved) tool that leaves just closes its approval request.
 */
export async function evaluateRemovals(ev: Evaluation, current: readonly CurrentTool[], notLooked?: (name: string) => boolean): Promise<void> {
  const names = new Set(current.map((t) => t.name));
  for (const [name, baseline] of ev.baselines) {
    if (names.has(name) || notLooked?.(name)) continue;
    const alert: Alert | undefined = ev.versionAlert(name);
    if (alert) await ev.resolve(alert, "superseded");
    if (baseline.approvedHash === null || ev.collapseActive || ev.unresolvedOf("tool_removed", name)) continue;
    await ev.open({ kind: "tool_removed", severity: "low", title: titleFor("tool_removed", name), toolName: name, candidateHash: null, baselineHash: baseline.approvedHash, details: {} });
  }
}
