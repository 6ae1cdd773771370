// Cue classes: what kinds of risky content a tool definition carries (pipelock PR #1230). A change
// is judged by the classes it INTRODUCES (a set difference), not by appended characters, so a
// rewrite that reorders sentences adds nothing, and a tool whose approved text already had a URL
// is not blocked forever by its next wording fix.
import type { CrossIndex } from "./rules-cross";
import { scanOneTool } from "./scan-tools";
import { TextView, matches } from "./text-view";
import { extractToolStrings } from "./extract";
import { SEVERITY_RANK, type AuditFinding, type AuditRuleId, type CueClass, type Evidence, type Severity, type StringField, type ToolLike } from "./types";

const RULE_CUE: Partial<Record<AuditRuleId, CueClass>> = {
  R1: "hidden-content",
  R2: "hidden-content",
  R3: "hidden-content",
  R4: "hidden-content",
  R5: "language-switch",
  R6: "agent-instruction",
  R7: "agent-instruction",
  R10: "agent-instruction",
  R8: "override",
  R9: "concealment",
  R12: "sensitive-path",
  R13: "exfiltration",
  R14: "exfiltration",
  R16: "exfiltration",
  R17: "exfiltration",
  R33: "exfiltration",
  R15: "url",
  R18: "secret",
  R19: "tool-reference",
  R20: "tool-reference",
  R22: "schema-poisoning",
  R23: "schema-poisoning",
  R24: "schema-poisoning",
  R25: "schema-poisoning",
  R34: "schema-poisoning",
};

/** Cues no single rule reports on its own (pipelock's drift cues): obligations aimed at the agent, other tools, destinations. */
const EXTRA: Array<{ cue: CueClass; re: RegExp; message: string }> = [
  { cue: "agent-instruction", re: /\byou\s+(?:must|should|need\s+to|have\s+to|are\s+required\s+to)\b|\b(?:make|be)\s+sure\s+to\b|\bensure\s+(?:that\s+)?you\b|\bbefore\s+(?:returning|responding|answering|replying|proceeding|continuing|calling|invoking|using)\s*,/g, message: "an obligation aimed at the agent" },
  { cue: "tool-reference", re: /\b(?:call|calls|calling|invoke|invokes|invoking)\s+(?:the\s+)?[a-z0-9][a-z0-9_.-]*\s+tool\b|\b(?:use|uses|using|with|via|through)\s+(?:the\s+)?[a-z0-9]+[_.-][a-z0-9_.-]*\s+tool\b|\btool\s+named\s+['"`]?[a-z0-9][a-z0-9_.-]*/g, message: "a reference to another tool" },
  { cue: "url", re: /(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[a-z]{2,}\b|(?<![\w.])\+\d[\d\s-]{7,}\d/g, message: "a destination (email address or phone number)" },
];

/** The first evidence of a cue class, and the severity of the finding it came from. */
export type CueHit = { pointer: string; field?: StringField; evidence: Evidence; message: string; severity: Severity };

/** Every cue class a tool carries, each with the first evidence of it. */
export function toolCues(tool: ToolLike, index: CrossIndex, findings?: readonly AuditFinding[]): Map<CueClass, CueHit> {
  const cues = new Map<CueClass, CueHit>();
  for (const f of findings ?? scanOneTool(tool, index)) {
    const cue = RULE_CUE[f.ruleId];
    if (!cue || f.discounted) continue;
    const prev = cues.get(cue);
    if (!prev || SEVERITY_RANK[f.severity] > SEVERITY_RANK[prev.severity]) cues.set(cue, { pointer: f.pointer, field: f.field, evidence: f.evidence, message: `${f.ruleId} ${f.message}`, severity: f.severity });
  }
  for (const s of extractToolStrings(tool)) {
    if (s.field === "name" || s.field === "property-name" || s.field === "required") continue;
    const view = new TextView(s.text);
    for (const { cue, re, message } of EXTRA) {
      if (cues.has(cue)) continue;
      for (const m of matches(view, re)) {
        if (view.framed(m.index, m.index + m[0].length)) continue;
        cues.set(cue, { pointer: s.pointer, field: s.field, evidence: view.evidence(m.index, m.index + m[0].length), message, severity: "medium" });
        break;
      }
    }
  }
  return cues;
}
