// `toolwatch check`: the live server against its lock. The lock's tools are the "before" side
// whatever happened to the protocol facts; those changes are reported beside the tool diff.
import { atLeast, buildAuditReport, scanTools, type AuditReport, type Severity } from "@/lib/detection";
import { diffToolLists, highestLevel, type Level, type ToolLike, type ToolListDiff } from "@/lib/diff";
import { hashToolList } from "@/lib/hash/canonical-hash";
import { compareServerFacts, type ServerChange } from "./compare-server";
import { lockTools, type Lockfile, type LockedServer } from "./lockfile";

export type LockCheck = {
  /** Bumped on any incompatible change to this shape (`toolwatch check --json`). */
  version: 1;
  lock: { contentHash: string; toolCount: number };
  live: { contentHash: string; toolCount: number };
  /** Protocol facts that differ from the lock (serverInfo, capabilities, protocol version…). */
  server: ServerChange[];
  tools: ToolListDiff;
  /** The scanner on what changed: added and changed tools (and the instructions, if they changed). */
  scan: AuditReport;
  /** Findings per level over `server` and `tools`; `highest` of both. */
  levels: Record<Level, number>;
  highest: Level | null;
};

export function checkAgainstLock(lock: Lockfile, live: { server: LockedServer; tools: readonly ToolLike[] }): LockCheck {
  // Sorted like the lock, so a server that reorders its tools is not reported as "order changed".
  const liveTools = lockTools(live.tools);
  const diff = diffToolLists(
    lock.tools.map((t) => t.definition),
    liveTools.map((t) => t.definition),
  );
  const server = compareServerFacts(lock.server, live.server);

  const touched = new Set<string>([...diff.added.map((a) => a.name), ...diff.changed.map((c) => c.rename?.to ?? c.name)]);
  const instructionsChanged = server.some((c) => c.ruleId === "instructions-changed");
  // The whole live list is scanned (cross-tool rules need it); findings are kept for what changed.
  const findings = scanTools(
    liveTools.map((t) => t.definition),
    { instructions: instructionsChanged ? live.server.instructions : null },
  ).filter((f) => (f.toolName === null ? instructionsChanged : touched.has(f.toolName)));

  const levels: Record<Level, number> = { ...diff.summary.levels };
  for (const c of server) levels[c.level]++;
  return {
    version: 1,
    lock: { contentHash: lock.contentHash, toolCount: lock.toolCount },
    live: { contentHash: hashToolList(liveTools), toolCount: liveTools.length },
    server,
    tools: diff,
    scan: buildAuditReport(findings, { toolCount: touched.size }),
    levels,
    highest: highestLevel([...(diff.summary.highest ? [diff.summary.highest] : []), ...server.map((c) => c.level)]),
  };
}

/** Whether a check fails the gate: a finding at `failOn` or above, or (if asked) a scanner severity at `scanFailOn` or above. */
export function checkFails(check: LockCheck, failOn: "ERR" | "WARN", scanFailOn?: Exclude<Severity, "info">): { failed: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (check.levels.ERR > 0 || (failOn === "WARN" && check.levels.WARN > 0)) reasons.push(`findings at ${failOn} or above (--fail-on ${failOn})`);
  const severity = check.scan.summary.severity;
  if (scanFailOn && severity && atLeast(severity, scanFailOn)) reasons.push(`scanner severity ${severity} is at or above --fail-on-scan ${scanFailOn}`);
  return { failed: reasons.length > 0, reasons };
}
