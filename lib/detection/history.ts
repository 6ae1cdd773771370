// Family F — rules that need history (detection-rules R26–R30, R32): what a change introduced,
// annotation drift, new parameters, silent changes, rename evasion and collapse. The diff engine
// (lib/diff) says what changed; these rules say what the change means for security.
import { diffTool, diffToolLists, type Finding as DiffFinding } from "@/lib/diff";
import { isObject, lastToken } from "@/lib/diff/json";
import { resolvePointer } from "@/lib/json-pointer";
import { toolCues, type CueHit } from "./cues";
import { crossIndex, type CrossIndex } from "./rules-cross";
import { FindingSink } from "./sink";
import type { AuditFinding, ChangeClassification, ChangeInput, CueClass, Severity, ToolLike } from "./types";

const DESCRIPTIVE = new Set(["tool-description-changed", "tool-title-changed"]);
const isDescriptive = (f: DiffFinding) => DESCRIPTIVE.has(f.ruleId) || (f.ruleId === "schema-annotation-changed" && /\/(?:description|title)$/.test(f.pointer));
const MEDIUM_CUES = new Set<CueClass>(["language-switch"]);

function introducedCues(before: ToolLike, after: ToolLike, bIndex: CrossIndex, aIndex: CrossIndex) {
  const b = toolCues(before, bIndex);
  const a = toolCues(after, aIndex);
  return [...a.entries()].filter(([cue]) => !b.has(cue));
}

/**
 * The baseline policy of issue 6: a description-only edit that introduces no suspicious cue class
 * is benign (auto-accepted as the new baseline, and logged); schema, annotation, name and
 * suspicious description changes need review.
 */
export function classifyChange(before: ToolLike, after: ToolLike): ChangeClassification {
  const reasons: string[] = [];
  if (String(before.name) !== String(after.name)) reasons.push(`renamed from ${JSON.stringify(String(before.name))} to ${JSON.stringify(String(after.name))}`);
  const diff = diffTool(before, after);
  const structural = diff.findings.filter((f) => !isDescriptive(f) && f.ruleId !== "tool-renamed");
  for (const f of structural.slice(0, 20)) reasons.push(`${f.ruleId} at ${f.pointer || "(tool)"}`);
  if (structural.length > 20) reasons.push(`… and ${structural.length - 20} more structural changes`);
  const added = introducedCues(before, after, crossIndex([before]), crossIndex([after])).map(([cue]) => cue);
  if (added.length) reasons.push(`introduced ${added.join(", ")}`);
  return { kind: reasons.length ? "needs-review" : "benign-description", cueClassesAdded: added, reasons };
}

const PATH_OR_URL = /(?:^|_)(?:path|paths|file|files|filename|filepath|dir|directory|folder|url|uri|urls|endpoint|webhook|callback|host|target|destination)(?:$|_)/i;

const PAGINATION = /^(?:cursor|page_?token|next_?(?:page_?)?token|continuation(?:_?token)?|etag|offset|page|after|before|starting_?after|ending_?before)$/i;

/**
 * A parameter that asks for a secret or personal data, or gives the agent a place to put the
 * conversation: what an optional new parameter must look like to stay high (R28).
 */
const CARRIER_OR_SECRET = /pass(?:word|wd|phrase)|secret|token|api_?key|private_?key|cookie|session|credential|\b(?:otp|mfa|2fa|totp|pin|cvv|cvc|ssn|iban)\b|card|seed|mnemonic|histor|conversation|context|transcript|messages?\b|chat|prompt|notes?\b|memo|sidenote|metadata|debug|telemetry|analytic|tracking|e-?mail|phone|location|contacts?\b|address/i;

/**
 * R28 — severity of a new parameter: free text, paths and URLs can carry data out. A required one
 * is high (calls that omit it fail, so the agent must fill it); an optional one only when it asks
 * for a secret or personal data or is a carrier for the conversation (CARRIER_OR_SECRET). Every
 * other new parameter is low: listed with the change, which the diff already classes (WARN/ERR),
 * but not a security signal. On the tuning corpus (2026-12-06), 17 honest changes were high on R28
 * alone, every one an optional parameter with an ordinary name ("since", "timezone",
 * "idempotency_key", "thread_ts", "notify_url"), against 14 rug pulls, 9 of them required
 * ("conversation", "card_pin"); at medium, 101 of 322 honest changes were medium on R28 alone,
 * against 6 of 444 rug pulls.
 */
function newParameter(after: ToolLike, pointer: string, required: boolean): { severity: Severity; kind: string } {
  const name = lastToken(pointer);
  const schema = resolvePointer(after, pointer);
  const s = isObject(schema) ? schema : {};
  const description = typeof s.description === "string" ? s.description : "";
  const found = parameterKind(name, s, description.toLowerCase());
  if (found.severity !== "high" || required) return found;
  return CARRIER_OR_SECRET.test(`${name.replace(/([a-z])([A-Z])/g, "$1_$2")} ${description}`) ? found : { ...found, severity: "low" };
}

/** What a new parameter can carry (high: free text, a path or a URL; low: anything else), from its name, its schema and its lower-cased description. */
function parameterKind(name: string, s: Record<string, unknown>, text: string): { severity: Severity; kind: string } {
  const type = s.type;
  if (PATH_OR_URL.test(name) || s.format === "uri" || s.format === "uri-reference" || /\b(?:path|url|file|directory)\b/.test(text)) return { severity: "high", kind: "path or URL" };
  // Pagination and resource handles echo what the server gave out ("Opaque cursor from the previous response").
  if (PAGINATION.test(name) || /\b(?:opaque|cursor|page\s+token|from\s+the\s+previous\s+(?:page|response))\b/.test(text)) return { severity: "low", kind: "pagination token" };
  const stringy = type === "string" || type === undefined || (Array.isArray(type) && type.includes("string"));
  const constrained = Array.isArray(s.enum) || "const" in s || typeof s.pattern === "string" || (typeof s.maxLength === "number" && s.maxLength <= 64) || (typeof s.format === "string" && s.format !== "");
  if (stringy && !constrained) return { severity: "high", kind: "free text" };
  return { severity: "low", kind: Array.isArray(s.enum) ? "enum" : String(type ?? "constrained") };
}

const firstByName = (tools: readonly ToolLike[]) => {
  const map = new Map<string, ToolLike>();
  for (const t of tools) if (!map.has(String(t.name))) map.set(String(t.name), t);
  return map;
};

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : 0;
};

/** Family F over one change of a server's tool list. A first snapshot (before: null) has no history findings. */
export function scanChange(input: ChangeInput): AuditFinding[] {
  const { before, after } = input;
  if (!before) return [];
  const sink = new FindingSink();
  const diff = diffToolLists(before, after);
  const beforeByName = firstByName(before);
  const afterByName = firstByName(after);
  const bIndex = crossIndex(before);
  const aIndex = crossIndex(after);
  const silent = !input.notified && !input.serverVersionChanged;

  const judge = (b: ToolLike, a: ToolLike, findings: readonly DiffFinding[]) => {
    const toolName = String(a.name);
    // One finding per place: every cue class the change introduced there, the first as evidence.
    // High, or critical when the change brought three or more risky classes, or content that is
    // critical on its own (a decoded hidden message, a schema identifier that is an instruction).
    const introduced = introducedCues(b, a, bIndex, aIndex);
    const risky = introduced.filter(([cue]) => !MEDIUM_CUES.has(cue));
    const escalate = risky.length >= 3 || risky.some(([, hit]) => hit.severity === "critical");
    const byPointer = new Map<string, Array<[CueClass, CueHit]>>();
    for (const [cue, hit] of introduced) byPointer.set(hit.pointer, [...(byPointer.get(hit.pointer) ?? []), [cue, hit]]);
    for (const [pointer, hits] of byPointer) {
      const severity: Severity = hits.every(([cue]) => MEDIUM_CUES.has(cue)) ? "medium" : escalate ? "critical" : "high";
      const [, first] = hits[0]!;
      const what = hits.map(([cue, hit]) => `${cue} (${hit.message})`).join("; ");
      sink.add({ toolName, pointer, field: first.field }, "R26", severity, first.evidence, `the change introduced ${what}`);
    }
    for (const f of findings) {
      const at = { toolName, pointer: f.pointer };
      const ev = { text: f.message.slice(0, 160), start: 0, end: 0 };
      if (f.ruleId === "tool-annotation-escalated") sink.add(at, "R27", "high", ev, f.message);
      else if (f.ruleId === "tool-annotation-safety-claimed") sink.add(at, "R27", f.pointer.endsWith("/openWorldHint") ? "low" : "medium", ev, f.message);
      else if ((f.ruleId === "new-required-request-property" || f.ruleId === "new-optional-request-property") && f.pointer.startsWith("/inputSchema")) {
        const isRequired = f.ruleId === "new-required-request-property";
        const { severity, kind } = newParameter(a, f.pointer, isRequired);
        const required = isRequired ? "required " : "";
        sink.add(at, "R28", severity, { text: f.pointer.split("/").pop() ?? "", start: 0, end: 0 }, `new ${required}${kind} parameter on an existing tool: ${f.message}`);
      }
    }
    // How the change arrived, not what it says: low on its own (the alert pipeline raises whatever
    // else the change is by one level for it, lib/alerts/judge.ts).
    if (silent) sink.add({ toolName, pointer: "" }, "R29", "low", { text: "no list_changed, no version bump", start: 0, end: 0 }, "definition changed without a list_changed notification and without a serverInfo.version bump");
  };

  for (const c of diff.changed) {
    const b = beforeByName.get(c.name);
    const a = afterByName.get(c.rename?.to ?? c.name);
    if (!b || !a) continue;
    if (c.rename) {
      const ev = { text: `${c.rename.from} → ${c.rename.to}`, start: 0, end: 0 };
      sink.add({ toolName: c.rename.to, pointer: "/name" }, "R30", "medium", ev, `"${c.rename.from}" removed and "${c.rename.to}" added with body similarity ${c.rename.similarity.toFixed(2)}: reported as a change of "${c.rename.from}"`);
    }
    judge(b, a, c.findings);
  }
  // The diff engine pairs near-identical bodies (a compatibility question). A rename that also
  // rewrites the description must not escape R26, so removed and added tools with alike names or
  // the same parameters are compared as well.
  for (const [b, a, why] of probableRenames(diff.removed.map((r) => r.tool), diff.added.map((x) => x.tool))) {
    const ev = { text: `${String(b.name)} → ${String(a.name)}`, start: 0, end: 0 };
    sink.add({ toolName: String(a.name), pointer: "/name" }, "R30", "medium", ev, `"${String(b.name)}" removed and "${String(a.name)}" added (${why}): compared as a rename`);
    judge(b, a, diffTool(b, a).findings);
  }
  // Low, as for one tool (above): how the list changed, not what the new tools say; a new tool's
  // content is judged as a first-seen tool (lib/alerts/judge.ts judgeNewTool). Measured on the tuning
  // change cases (2026-12-06): medium here alone flagged 38 of 322 honest changes at --fail-on medium.
  if (silent && (diff.added.length || diff.removed.length)) {
    const text = `${diff.added.length} added, ${diff.removed.length} removed`;
    sink.add({ toolName: null, pointer: "" }, "R29", "low", { text, start: 0, end: 0 }, `tools ${text} without a list_changed notification and without a serverInfo.version bump`);
  }
  collapse(before.length, after.length, input.previousCounts, sink);
  return sink.list;
}

const skeleton = (name: unknown) => String(name).toLowerCase().replace(/[^a-z0-9]+/g, "");
const propNames = (t: ToolLike) => (isObject(t.inputSchema) && isObject(t.inputSchema.properties) ? Object.keys(t.inputSchema.properties).sort().join(",") : "");

function namesAlike(x: string, y: string): boolean {
  if (x.length < 4 || y.length < 4) return x === y;
  if (x.includes(y) || y.includes(x)) return true;
  if (Math.abs(x.length - y.length) > 2) return false;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length]! <= 2;
}

/** Removed/added pairs that are probably one tool renamed: alike names, or the same (non-empty) parameters. */
function probableRenames(removed: readonly ToolLike[], added: readonly ToolLike[]): Array<[ToolLike, ToolLike, string]> {
  if (!removed.length || !added.length || removed.length * added.length > 10_000) return [];
  const scored: Array<[number, ToolLike, ToolLike, string]> = [];
  for (const b of removed) {
    for (const a of added) {
      const alike = namesAlike(skeleton(b.name), skeleton(a.name));
      const props = propNames(b);
      const same = props !== "" && props === propNames(a);
      if (alike || same) scored.push([(alike ? 2 : 0) + (same ? 1 : 0), b, a, [alike && "alike names", same && "same parameters"].filter(Boolean).join(", ")]);
    }
  }
  scored.sort((p, q) => q[0] - p[0]);
  const used = new Set<ToolLike>();
  const pairs: Array<[ToolLike, ToolLike, string]> = [];
  for (const [, b, a, why] of scored) {
    if (used.has(b) || used.has(a)) continue;
    used.add(b).add(a);
    pairs.push([b, a, why]);
  }
  return pairs;
}

/** R32 — the list collapsed to zero, or dropped sharply against the previous snapshots. */
function collapse(beforeCount: number, afterCount: number, previous: readonly number[] | undefined, sink: FindingSink): void {
  const counts = previous?.length ? previous : [beforeCount];
  const typical = median(counts);
  const ev = { text: `${typical} → ${afterCount} tools`, start: 0, end: 0 };
  if (afterCount === 0 && typical > 0) sink.add({ toolName: null, pointer: "" }, "R32", "high", ev, `the tool list collapsed to zero (typically ${typical}): the server may be serving an empty or substituted list`);
  else if (typical >= 4 && afterCount <= typical * 0.5 && typical - afterCount >= 3) sink.add({ toolName: null, pointer: "" }, "R32", "medium", ev, `tool count dropped sharply, ${typical} → ${afterCount}`);
  else if (typical >= 1 && afterCount >= typical * 3 && afterCount - typical >= 10) sink.add({ toolName: null, pointer: "" }, "R32", "low", ev, `tool count jumped, ${typical} → ${afterCount}`);
}
