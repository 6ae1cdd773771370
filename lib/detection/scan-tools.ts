// scanTools: families A–E over one tools/list result (and, for D, the team's other servers).
// Pure and offline: no I/O, inputs untouched, linear in the size of the list (plus one regex
// alternation over the other servers' distinctive tool names).
import { expandIdentifier, normalizeText } from "./normalize";
import { crossIndex, scanCollisions, scanReferences, type CrossIndex } from "./rules-cross";
import { scanCredentials } from "./rules-credentials";
import { isPureTool, scanData, scanParameters } from "./rules-data";
import { scanEncoded, scanEscapes, scanInvisible, scanPadding, scanScripts } from "./rules-hidden";
import { scanHarvestParameters, scanHarvestText } from "./rules-harvest";
import { scanInstructions } from "./rules-instructions";
import { scanMultilingual } from "./rules-multilingual";
import { scanConvergence, scanDestinationDefaults, scanDestinationPatterns } from "./rules-converge";
import { scanContradiction, scanOpenSink, scanSchemaStrings, schemaPoisoning } from "./rules-schema";
import { scanMisplacedDirectives } from "./rules-directive";
import { FindingSink, type Scope, type ToolContext } from "./sink";
import { extractWithLimits, inputProperties } from "./extract";
import { surfaceItems, toItemFinding } from "./scan-surface";
import { TextView } from "./text-view";
import { findPayloads } from "./decode-payloads";
import { scanDecodeAsk } from "./rules-decode-ask";
import { learnedFinding, learnedViews, learnedVetoes, vetoFindings } from "./learned/score";
import type { FeatureInput } from "./learned/features";
import { SEVERITY_RANK, VALUE_FIELDS, type AuditFinding, type ExtractedString, type ItemKind, type ScanOptions, type Severity, type ToolLike } from "./types";

const IDENTIFIERS = new Set(["name", "property-name", "required"]);
// Also in other languages (skanuje, escanea, analysiert, détecte, rileva) and for normalisers that strip what attackers hide.
const GUARD_PURPOSE = /\b(?:detect\w*|d[ée]tect\w*|rileva\w*|erkenn\w*|skan\w*|escane\w*|scann\w*|analiz\w*|analys\w*|pr[üu]f\w*|normali[sz]\w*|scan\w*|guard\w*|classif\w*|moderat\w*|filter\w*|sanitiz\w*|firewall|lint\w*|audit\w*|check\w*|scor\w*|analy[sz]\w*|assess\w*|inspect\w*)\b/;
const ATTACK_WORDS = /\b(?:bidi|trojan\s+source|vulnerabilit\w*|vulns?|owasp|xss|ssrf|cves?|pentest\w*|red[- ]team\w*|podatno\w*|schwachstell\w*|vulnerabilidad\w*|vuln[ée]rabilit\w*|vulnerabilit[àa]|zero[- ]width|invisible\s+(?:unicode|characters?)|injections?|jailbreak\w*|malicious|attacks?|poison\w*|secrets?|leak\w*|phishing|threats?|pii|toxic\w*|unsafe|exploit\w*|confusables?|homoglyphs?|spoof\w*|look-?alikes?|typosquat\w*|impersonat\w*)\b/;

export function toolContext(tool: ToolLike, own: ReadonlySet<string>): ToolContext {
  const name = String(tool.name);
  const nameWords = expandIdentifier(name).toLowerCase();
  const title = typeof tool.title === "string" ? tool.title.toLowerCase() : "";
  const summary = typeof tool.description === "string" ? firstSentence(tool.description) : "";
  const purpose = normalizeText(`${nameWords} ${title} ${summary}`).text;
  const params = new Set(inputProperties(tool).map(([k]) => k.toLowerCase()).filter((k) => k.length >= 3));
  return { name, title, purpose, ownNames: own, describesAttacks: GUARD_PURPOSE.test(purpose) && ATTACK_WORDS.test(purpose), pure: isPureTool(nameWords, purpose), params };
}

/** The summary line of a description: up to the first sentence end or line break (at most 300 characters). */
function firstSentence(text: string): string {
  const t = text.trim().slice(0, 300);
  const end = t.search(/[.!?](?:\s|$)|\n/);
  return end >= 0 ? t.slice(0, end + 1) : t;
}

function scanString(s: ExtractedString, scope: Scope, sink: FindingSink, index: CrossIndex): void {
  const view = new TextView(s.text);
  scanInvisible(view, scope, sink);
  scanEscapes(view, scope, sink);
  if (IDENTIFIERS.has(s.field)) {
    scanScripts(view, scope, sink);
    return;
  }
  scanPadding(view, scope, sink);
  scanEncoded(view, scope, sink);
  scanScripts(view, scope, sink);
  scanInstructions(view, scope, sink);
  scanMultilingual(view, scope, sink);
  scanData(view, scope, sink);
  scanCredentials(view, scope, sink);
  scanHarvestText(view, scope, sink);
  scanReferences(view, scope, sink, index);
  scanDecoded(view, scope, sink, index);
  scanDecodeAsk(view, scope, sink);
  scanConvergence(view, scope, sink, index);
}

const ORDER_START = /^\s*(?:please\s+)?(?:put|send|ask|read|include|add|upload|forward|copy|call|use|ignore|always|never|do\s+not|tell|e-?mail|post|share|attach|append|fetch|open|run|execute|write|insert|set|prefix|store|save|list|collect|export)\b/i;
const DECODE_ASK = /\bdecod\w*|\bshift\s+(?:\w+\s+)?back|\bconvert\s+(?:it|them|this|the\s+(?:codes?|numbers?))|\btranslate\s+(?:it|them|this)\b/i;
const decodedAsProse = (field: ExtractedString["field"]) => field === "description" || VALUE_FIELDS.has(field);
const SEVERITY_OF_DECODED: Record<Severity, Severity | null> = { critical: "critical", high: "critical", medium: "high", low: null, info: null };

/**
 * R4 — decode what a model could decode (base64, hex, percent-encoding, rot13) and run the phrase
 * rules over the decoded text: a payload that says what a poisoned description would say is worse
 * than the plain text (it was hidden from people on purpose), so medium becomes high.
 */
function scanDecoded(view: TextView, scope: Scope, sink: FindingSink, index: CrossIndex): void {
  for (const p of findPayloads(view.raw)) {
    const inner = new TextView(p.text);
    const scratch = new FindingSink();
    // Decoded text is prose wherever it was hidden (a description, an enum value, an example), and
    // never the tool's own summary line.
    const inScope: Scope = { ...scope, field: decodedAsProse(scope.field) ? "schema-description" : scope.field };
    scanInstructions(inner, inScope, scratch);
    scanMultilingual(inner, inScope, scratch);
    scanData(inner, inScope, scratch);
    scanReferences(inner, inScope, scratch, index);
    // A decoded payload in business language (no phrase rule's words) converges like plain text.
    scanConvergence(inner, inScope, scratch, index);
    const worst = scratch.list.filter((f) => !f.discounted).sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity])[0];
    const severity = worst ? SEVERITY_OF_DECODED[worst.severity] : null;
    if (!worst || !severity) {
      // An order hidden in an encoding the text itself tells the model to decode ("character codes,
      // decode first: 80,117,116,…") is a hidden instruction whatever it asks for.
      const around = view.raw.slice(0, p.start) + view.raw.slice(p.end);
      if (ORDER_START.test(p.text) && DECODE_ASK.test(around) && !scope.tool.describesAttacks) {
        sink.add(scope, "R4", "high", view.rawEvidence(p.start, p.end), `${p.kind} payload the text asks the model to decode is an order: ${JSON.stringify(p.text.length > 100 ? `${p.text.slice(0, 99)}…` : p.text)}`, { decoded: p.text });
      }
      continue;
    }
    const clip = p.text.length > 100 ? `${p.text.slice(0, 99)}…` : p.text;
    sink.add(scope, "R4", severity, view.rawEvidence(p.start, p.end), `${p.kind} payload decodes to ${JSON.stringify(clip)} (${worst.ruleId}: ${worst.message})`, { decoded: p.text, discount: scope.tool.describesAttacks });
  }
}

/**
 * Findings of one tool (families A–C, E, and D's references; collisions need the whole list).
 * `extra` are strings a tool does not have but the item scanned as one does (a resource's uri).
 */
export function scanOneTool(tool: ToolLike, index: CrossIndex, extra: readonly ExtractedString[] = [], kind?: ItemKind): AuditFinding[] {
  return scanItem(tool, index, extra, kind).findings;
}

/**
 * The rules' findings on one item, and what the learned scorer reads of it (features.ts
 * FeatureInput: the same strings and context the rules used, extracted once).
 */
export function scanItem(tool: ToolLike, index: CrossIndex, extra: readonly ExtractedString[] = [], kind?: ItemKind): { findings: AuditFinding[]; input: FeatureInput; unread: AuditFinding | null } {
  const name = String(tool.name);
  const ctx = toolContext(tool, index.own);
  const sink = new FindingSink();
  const { strings: toolStrings, truncated } = extractWithLimits(tool);
  const strings = extra.length ? [...toolStrings, ...extra] : toolStrings;
  if (truncated) {
    const why = truncated.reason === "depth" ? "nested deeper than 64 levels" : "holds more than 10,000 strings";
    sink.add({ toolName: name, pointer: truncated.pointer }, "R22", "medium", { text: truncated.pointer, start: 0, end: 0 }, `the schema ${why}: what lies beyond was not inspected`);
  }
  for (const s of strings) scanString(s, { tool: ctx, toolName: name, pointer: s.pointer, field: s.field }, sink, index);
  scanParameters(tool, ctx, sink);
  scanHarvestParameters(tool, ctx, sink);
  scanSchemaStrings(name, strings, sink, ctx.purpose);
  scanDestinationDefaults(name, toolStrings, sink, ctx.purpose);
  scanDestinationPatterns(tool, sink);
  scanMisplacedDirectives(name, toolStrings, sink, { kind, describesAttacks: ctx.describesAttacks, own: index.own });
  scanOpenSink(tool, sink);
  scanContradiction(tool, sink);
  schemaPoisoning(sink.list, sink);
  const findings = sink.list;
  // The finding that says part of the schema was not inspected (R22) is about text nobody read.
  const unread = truncated ? (findings[0] ?? null) : null;
  return { findings, input: { name, strings, findings, index, describesAttacks: ctx.describesAttacks }, unread };
}

/**
 * One scanned item: its entity key (severity.ts groupByEntity), what the scorer reads, the rules'
 * findings on the text it read (the same objects as in `findings`; the veto may discount these), and
 * the scorer's probability (absent when the scan ran without it).
 */
export type ScannedItem = { key: string; input: FeatureInput; own: AuditFinding[]; p?: number };

/**
 * Families A–E over a tool list. `otherServers` (the team's other servers) enables shadowing
 * (R19) and cross-server collisions (R21); `instructions` are scanned like a description;
 * `prompts`, `resources` and `resourceTemplates` are scanned as tools are (scan-surface.ts), their
 * findings naming the item's kind and name.
 */
export function scanTools(tools: readonly ToolLike[], options: ScanOptions = {}): AuditFinding[] {
  return scanToolsDetailed(tools, options).findings;
}

/** scanTools, and each item as scanned (the learned scorer's training set reads them: scripts/detector/dataset.ts). */
export function scanToolsDetailed(tools: readonly ToolLike[], options: ScanOptions = {}): { findings: AuditFinding[]; items: ScannedItem[] } {
  const others = options.otherServers ?? [];
  const index = crossIndex(tools, others);
  const findings: AuditFinding[] = [];
  const items: ScannedItem[] = [];
  const learned = options.learned !== false;
  /** Records the item and returns R35's finding on it, if any. */
  const add = (item: ScannedItem, toolName: string | null, pointer: string): AuditFinding[] => {
    items.push(item);
    if (!learned) return [];
    const views = learnedViews(item.input);
    item.p = views.p;
    const found = learnedFinding(item.input, toolName, pointer, views);
    return found ? [found] : [];
  };
  for (const tool of tools) {
    const { findings: found, input, unread } = scanItem(tool, index);
    const name = String(tool.name);
    findings.push(...found, ...add({ key: name, input, own: found.filter((f) => f !== unread) }, name, "/description"));
  }
  for (const item of surfaceItems(options)) {
    const scanned = scanItem(item.tool, index, item.extra, item.kind);
    const found = scanned.findings.map((f) => toItemFinding(f, item));
    const own = found.filter((_, i) => scanned.findings[i] !== scanned.unread);
    findings.push(...found, ...add({ key: `${item.kind} ${item.name}`, input: scanned.input, own }, item.name, "/description").map((f) => toItemFinding(f, item)));
  }

  const sink = new FindingSink();
  if (typeof options.instructions === "string" && options.instructions) {
    // The server's purpose is what its tools say they are for: instructions that move something none of them is about stand out.
    const purpose = tools.map((t) => toolContext(t, index.own).purpose).join(" ");
    const ctx: ToolContext = { name: null, title: "", purpose, ownNames: index.own, describesAttacks: false, pure: false };
    scanString({ pointer: "/instructions", field: "instructions", text: options.instructions }, { tool: ctx, toolName: null, pointer: "/instructions", field: "instructions" }, sink, index);
    const own = [...sink.list];
    const input: FeatureInput = { name: null, strings: [{ pointer: "/instructions", field: "instructions", text: options.instructions }], findings: own, index, describesAttacks: false };
    findings.push(...add({ key: "", input, own }, null, "/instructions"));
  }
  // List-level findings (length outliers, collisions): the scorer never read them, so it cannot veto them.
  lengthOutliers(tools, sink);
  scanCollisions(tools, others, sink);
  const all = [...findings, ...sink.list];
  if (!learned) return { findings: all, items };
  const replaced = vetoReplacements(items, learnedVetoes);
  return { findings: replaced.size ? all.map((f) => replaced.get(f) ?? f) : all, items };
}

/**
 * The veto over a scan's items (learned/score.ts vetoFindings): for each entity whose highest
 * probability `vetoes` accepts, its items' own findings mapped to their discounted copies. List-level
 * findings are never items' own, so they stay. The training set asks what a veto would leave with
 * `vetoes` always true (scripts/detector/dataset.ts).
 */
export function vetoReplacements(items: readonly ScannedItem[], vetoes: (p: number) => boolean): Map<AuditFinding, AuditFinding> {
  const byKey = new Map<string, { p: number; own: AuditFinding[] }>();
  for (const it of items) {
    const entry = byKey.get(it.key) ?? { p: 0, own: [] };
    entry.p = Math.max(entry.p, it.p ?? 0);
    entry.own.push(...it.own);
    byKey.set(it.key, entry);
  }
  const replaced = new Map<AuditFinding, AuditFinding>();
  for (const { p, own } of byKey.values()) {
    if (vetoes(p)) vetoFindings(own, p).forEach((f, i) => replaced.set(own[i]!, f));
  }
  return replaced;
}

/** R3 (second half) — a description far longer than the server's others hides a payload below the fold. */
function lengthOutliers(tools: readonly ToolLike[], sink: FindingSink): void {
  const lengths = tools.map((t) => (typeof t.description === "string" ? t.description.length : 0));
  const present = lengths.filter((n) => n > 0);
  if (present.length < 8) return;
  const mean = present.reduce((a, b) => a + b, 0) / present.length;
  const sd = Math.sqrt(present.reduce((a, b) => a + (b - mean) ** 2, 0) / present.length);
  if (sd === 0) return;
  tools.forEach((t, i) => {
    const n = lengths[i]!;
    const z = (n - mean) / sd;
    if (z > 3.5 && n > 1500) {
      sink.add({ toolName: String(t.name), pointer: "/description", field: "description" }, "R3", "low", { text: `${n} characters`, start: 0, end: 0 }, `description is ${Math.round(n / mean)}× the server's average length (z ${z.toFixed(1)}): text below the fold goes unread by people`);
    }
  });
}
