import { renderAuditText } from "@/lib/detection";
import { renderDiffText, renderWords, visibleText } from "@/lib/diff";
import type { LockCheck, ServerChange } from "@/lib/lockfile";

const short = (hash: string) => hash.slice(0, 27);
const shown = (value: unknown) => (value === null || value === undefined ? "(none)" : visibleText(JSON.stringify(value)));
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The terminal form of `toolwatch check`: server facts, the tool diff, then the scanner on what changed. */
export function renderCheckText(check: LockCheck, lockPath: string): string {
  const same = check.lock.contentHash === check.live.contentHash;
  const lines = [
    `lock: ${visibleText(lockPath)} (${check.lock.toolCount} tools, ${short(check.lock.contentHash)}…)`,
    `live: ${check.live.toolCount} tools, ${short(check.live.contentHash)}…${same ? " (same tools)" : ""}`,
    "",
    `server: ${check.server.length ? `${check.server.length} change${check.server.length === 1 ? "" : "s"}` : "no changes"}`,
    ...check.server.flatMap(renderServerChange),
    "",
    `tools: ${renderDiffText(check.tools)}`,
    "",
    "scanner, on added and changed tools:",
    check.scan.tools.length ? renderAuditText(check.scan) : "no findings",
    "",
    `result: highest ${check.highest ?? "none"} (ERR ${check.levels.ERR} · WARN ${check.levels.WARN} · INFO ${check.levels.INFO})`,
  ];
  return lines.join("\n");
}

function renderServerChange(c: ServerChange): string[] {
  const head = `    ${c.level.padEnd(4)} ${c.ruleId}  ${c.field}`;
  if (c.words) return [head, `         ${renderWords(c.words)}`];
  return [head, `         ${clip(shown(c.before), 100)} → ${clip(shown(c.after), 100)}`];
}
