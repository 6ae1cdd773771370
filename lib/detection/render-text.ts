// Compact terminal rendering of an audit report (the CLI's default output). Every untrusted string
// (tool names, evidence, decoded payloads, messages) goes through visibleText: hidden characters
// become ⟦markers⟧, control codes never reach the TTY, newlines show as ↵.
import { visibleText } from "@/lib/diff/render-text";
import type { AuditReport } from "./report";
import { SEVERITY_RANK, type AuditFinding, type Severity } from "./types";

export type RenderOptions = {
  /** Findings below this severity are counted, not listed. Default "low" (info findings, e.g. plain URLs, are hidden). */
  minSeverity?: Severity;
};

const LABEL: Record<Severity, string> = { critical: "CRITICAL", high: "HIGH", medium: "MEDIUM", low: "LOW", info: "INFO" };
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function renderAuditText(report: AuditReport, options: RenderOptions = {}): string {
  const floor = SEVERITY_RANK[options.minSeverity ?? "low"];
  const s = report.summary;
  const counts = (["critical", "high", "medium", "low", "info"] as const).map((k) => `${k} ${s.bySeverity[k]}`).join(" · ");
  const lines = [`${s.tools} tools scanned, ${s.flagged} flagged — overall ${s.severity ? LABEL[s.severity] : "clean"} (findings: ${counts})`];
  let hidden = 0;
  for (const tool of report.tools) {
    const shown = tool.findings.filter((f) => SEVERITY_RANK[f.severity] >= floor);
    hidden += tool.findings.length - shown.length;
    if (!shown.length) continue;
    const name = tool.name === null ? "(server)" : visibleText(tool.name);
    lines.push("", `${LABEL[tool.severity ?? "info"].padEnd(8)} ${name}  score ${tool.score} · rules ${tool.rules.join(" ")}`);
    for (const f of shown) lines.push(...renderFinding(f));
  }
  if (hidden) lines.push("", `${hidden} finding${hidden === 1 ? "" : "s"} below ${options.minSeverity ?? "low"} not shown (use --json to see them)`);
  if (!report.tools.length) lines.push("no findings");
  return lines.join("\n");
}

function renderFinding(f: AuditFinding): string[] {
  const where = visibleText(f.pointer || "(tool)");
  const out = [`  ${f.severity.padEnd(8)} ${f.ruleId.padEnd(3)} ${where}${f.vetoedBy ? `  (discounted: R35 rates the item benign, p = ${f.vetoedBy.p.toFixed(3)})` : f.discounted ? "  (discounted)" : ""}`, `           ${clip(visibleText(f.message), 160)}`];
  if (f.evidence.text) out.push(`           » ${clip(visibleText(f.evidence.text), 140)}`);
  if (f.decoded) out.push(`           decoded: ${clip(visibleText(f.decoded), 140)}`);
  return out;
}
