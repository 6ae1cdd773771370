// Family A — hidden or obfuscated content (detection-rules R1–R5). R1 and R2 read the raw text:
// the normalized view has already dropped what they look for.
import { hiddenCharName } from "@/lib/text/reveal-hidden";
import { escapeLength, isLookalike } from "./normalize";
import { PATH_TARGETS } from "./rules-data";
import type { FindingSink, Scope } from "./sink";
import { instructionProbe } from "./rules-instructions";
import type { TextView } from "./text-view";
import type { Severity } from "./types";

const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isVariation = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const isBidi = (cp: number) => (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
const PICTO = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u20e3]/u;
const nonLatinLetter = (c: string) => /\p{L}/u.test(c) && !/\p{Script=Latin}/u.test(c);
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

const HANGUL_FILLERS = new Set([0x115f, 0x1160, 0x3164, 0xffa0]);

function kindOf(cp: number): string | null {
  if (cp === 0x1b || cp === 0x0d || cp === 0x09 || cp === 0x0a) return null; // R2 reads escapes and carriage returns
  if (HANGUL_FILLERS.has(cp)) return "HANGUL FILLER";
  const name = hiddenCharName(cp);
  return name === "PRIVATE USE" ? null : name;
}

/** R1 — invisible Unicode, tag characters and variation-selector payloads decoded. */
export function scanInvisible(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  if (/^[\x20-\x7e\n\t]*$/.test(raw)) return;
  const chars = Array.from(raw);
  const offsets: number[] = [];
  for (let i = 0, o = 0; i < chars.length; o += chars[i]!.length, i++) offsets.push(o);
  const kinds = new Map<string, number>();
  let first = -1;
  let last = -1;
  let tagText = "";
  let bidi = false;
  const vsRuns: number[][] = [];
  let vsRun: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i]!.codePointAt(0)!;
    if (isVariation(cp)) {
      const prev = chars[i - 1];
      const prevVs = prev !== undefined && isVariation(prev.codePointAt(0)!);
      if (!prevVs && vsRun.length === 0 && (cp === 0xfe0e || cp === 0xfe0f) && prev !== undefined && (PICTO.test(prev) || /[\u2000-\u2bff\u3000-\u303f#*0-9]/.test(prev)) && !isVariation(chars[i + 1]?.codePointAt(0) ?? 0)) continue;
      vsRun.push(cp);
    } else if (vsRun.length) {
      vsRuns.push(vsRun);
      vsRun = [];
    }
    const kind = kindOf(cp);
    if (!kind) continue;
    if ((cp === 0x200d || cp === 0x200c) && isJoinerBetween(chars[i - 1], chars[i + 1])) continue;
    if (cp === 0xfeff && i === 0) continue;
    if ((cp === 0x200e || cp === 0x200f || cp === 0x061c) && RTL.test(raw)) continue;
    if (isTag(cp) && cp >= 0xe0020 && cp <= 0xe007e) tagText += String.fromCharCode(cp - 0xe0000);
    if (isBidi(cp)) bidi = true;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    if (first < 0) first = i;
    last = i;
  }
  if (vsRun.length) vsRuns.push(vsRun);
  if (first < 0) return;
  const vsText = vsRuns.filter((r) => r.length >= 3).map(decodeVariationSelectors).join(" ").trim();
  const decoded = [tagText.trim(), vsText].filter(Boolean).join(" ");
  const total = [...kinds.values()].reduce((a, b) => a + b, 0);
  const identifier = scope.field === "name" || scope.field === "property-name";
  let severity: Severity = total >= 3 ? "medium" : "low";
  if (bidi || kinds.size === 2 || identifier) severity = "high";
  if (kinds.size >= 3 || decoded.length >= 3) severity = "critical";
  const end = offsets[last]! + chars[last]!.length;
  const start = offsets[first]!;
  const list = [...kinds.entries()].map(([k, n]) => `${k}×${n}`).join(", ");
  const what = decoded ? `hidden message ${JSON.stringify(clip(decoded, 80))}` : `${total} invisible character${total === 1 ? "" : "s"}`;
  // A scanner or normaliser of hidden characters shows samples of what it catches; a decoded hidden message is never a sample.
  const sample = scope.tool.describesAttacks && !decoded && !identifier && /\b(?:bidi|invisible|zero[- ]width|hidden|control|format)\b|⟦/i.test(view.raw);
  sink.add(scope, "R1", severity, view.rawEvidence(start, Math.min(end, start + 400)), `${what} (${list})`, decoded ? { decoded } : { discount: sample });
}

function isJoinerBetween(prev: string | undefined, next: string | undefined): boolean {
  if (prev === undefined || next === undefined) return false;
  if ((PICTO.test(prev) || isVariation(prev.codePointAt(0)!)) && PICTO.test(next)) return true;
  return nonLatinLetter(prev) && nonLatinLetter(next);
}

/** Variation selectors as bytes (FE00–FE0F → 0–15, E0100–E01EF → 16–255), read as UTF-8. */
function decodeVariationSelectors(run: number[]): string {
  const bytes = Uint8Array.from(run, (cp) => (cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16));
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const printable = text.replace(/[^\x20-\x7e\n\p{L}\p{N}\p{P}\p{Zs}]/gu, "");
  return printable.length >= Math.max(3, text.length * 0.8) ? printable : "";
}

/** R2 — terminal escape sequences and carriage-return or backspace overwrites. */
export function scanEscapes(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  const esc = raw.indexOf("\u001b");
  if (esc >= 0) {
    let hiding = false;
    let count = 0;
    for (let i = esc; i >= 0 && i < raw.length; i = raw.indexOf("\u001b", i + 1)) {
      const seq = raw.slice(i + 1, i + escapeLength(raw, i));
      count++;
      if (/^\[[0-9;]*[ABCDEFGHJKSTfsu]$/.test(seq) || /^\[(?:[0-9;]*;)?8(?:;[0-9;]*)?m$/.test(seq) || /^\]8;/.test(seq)) hiding = true;
      const fgbg = /^\[38;5;(\d+);48;5;(\d+)m$/.exec(seq) ?? /^\[3(\d);4(\d)m$/.exec(seq);
      if (fgbg && fgbg[1] === fgbg[2]) hiding = true;
    }
    const message = `${count} terminal escape sequence${count === 1 ? "" : "s"}${hiding ? " that move the cursor, conceal or recolour text" : ""}: terminal clients show something other than what the model reads`;
    sink.add(scope, "R2", hiding ? "critical" : "high", view.rawEvidence(esc, Math.min(raw.length, esc + 120)), message);
    return;
  }
  const cr = /\r(?!\n)|\cH/.exec(raw);
  if (cr) sink.add(scope, "R2", "medium", view.rawEvidence(Math.max(0, cr.index - 20), Math.min(raw.length, cr.index + 60)), "carriage return or backspace that can overwrite text in a terminal");
}

/** The first whitespace run with 40+ blanks in a row or 8+ line breaks that is followed by text (a linear scan: a regex backtracks badly on long trailing runs). */
function paddingRun(raw: string): { start: number; end: number } | null {
  let start = -1;
  let blanks = 0;
  let most = 0;
  let breaks = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // Blank Braille (U+2800) and the Hangul fillers render as blanks too, and no filter strips them.
    const blank = c === 0x20 || c === 0x09 || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x2800 || c === 0x3164 || c === 0xffa0 || c === 0x115f || c === 0x1160;
    if (blank || c === 0x0a || c === 0x0d) {
      if (start < 0) [start, blanks, most, breaks] = [i, 0, 0, 0];
      if (blank) most = Math.max(most, ++blanks);
      else {
        blanks = 0;
        if (c === 0x0a) breaks++;
      }
      continue;
    }
    if (start >= 0 && (most >= 40 || breaks >= 8)) return { start, end: i };
    start = -1;
  }
  return null;
}

/** R3 — off-screen padding before a payload, and HTML comments. */
export function scanPadding(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  if (raw.length < 40) return;
  const pad = paddingRun(raw);
  if (pad) {
    const after = pad.end;
    const width = pad.end - pad.start;
    // What the padding pushes out of view, when it addresses the model or gives an order, is meant for it alone.
    const pushed = raw.slice(after, after + 400).toLowerCase();
    const commanding = AGENT_ADDRESS.test(pushed) || IMPERATIVE.test(pushed);
    sink.add(scope, "R3", commanding ? "high" : "medium", view.rawEvidence(after, Math.min(raw.length, after + 120)), `${width} blank characters push the text that follows out of view${commanding ? ", and it gives the reading model instructions" : ""}`);
  }
  if (!/<|\]\s*[(:]|^\s*---/.test(raw)) return;
  for (const region of hiddenRegions(raw)) {
    const text = region.text.toLowerCase().replace(/\s+/g, " ");
    if (!/\p{L}{3,}/u.test(text)) continue;
    // Text styled invisible in a description has no reader but the model: a sentence there is meant for it.
    const commanding = AGENT_ADDRESS.test(text) || IMPERATIVE.test(text) || (region.kind === "invisible HTML element" && /\p{L}+(?:\s+\p{L}+){3}/u.test(text));
    if (!commanding && region.kind !== "HTML comment") continue;
    const message = commanding ? `${region.kind}: hidden when rendered, and it gives the reading model instructions` : "HTML comment: hidden when rendered, read by the model";
    // A comment with no order and no addressee is usually generator boilerplate: a cue, not a threat.
    sink.add(scope, "R3", commanding ? "high" : "low", view.rawEvidence(region.start, region.end), message);
  }
}

/** Text addressed to the model ("Assistant:", "note to the AI", "SYSTEM:"). */
const AGENT_ADDRESS = /(?:^|[\s([>"'])(?:assistant|ai(?: agent)?|agent|model|llm|claude|gpt|chatgpt|copilot|system)\s*[:,]|\b(?:note|instructions?|message)s?\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|agent|llm)\b/;
/** A sentence that starts with an order to act (call, send, read, ignore…). */
const IMPERATIVE = /(?:^|[.:;!?(["']\s*)\s*(?:please\s+|also\s+|first\s+|then\s+|now\s+)?(?:call|invoke|send|forward|read|include|e-?mail|upload|delete|ignore|disregard|always|never|append|attach|pass|run|execute|copy|post|fetch|exfiltrate|bcc)\b/;

type Region = { kind: string; start: number; end: number; text: string };

/**
 * Parts of a description that a rendered view hides but a model reads: HTML comments, markdown
 * link titles (shown only on hover), markdown comment links ("[//]: # (…)"), elements styled
 * invisible, and collapsed <details> bodies.
 */
function hiddenRegions(raw: string): Region[] {
  const out: Region[] = [];
  const add = (kind: string, m: RegExpMatchArray, group = 1) => out.push({ kind, start: m.index!, end: m.index! + m[0].length, text: m[group] ?? "" });
  for (const m of raw.matchAll(/<!--([\s\S]{0,4000}?)-->/g)) add("HTML comment", m);
  for (const m of raw.matchAll(/\]\(\s*<?[^\s)>]*>?\s+(?:"([^"\n]{1,400})"|'([^'\n]{1,400})')\s*\)/g)) out.push({ kind: "markdown link title", start: m.index, end: m.index + m[0].length, text: m[1] ?? m[2] ?? "" });
  for (const m of raw.matchAll(/^\s*\[[^\]\n]{0,40}\]:\s*(?:#|<>|\S+)\s+\(([^)\n]{1,400})\)/gm)) add("markdown comment", m);
  for (const m of raw.matchAll(/<(\w+)\b[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*[01](?:\.\d+)?(?:px|pt|em|rem)?(?![\d.])|opacity\s*:\s*0(?![.\d])|color\s*:\s*(?:transparent|rgba\([^)]*,\s*0\))|\shidden(?:\s|>|=))[^>]*>([\s\S]{0,2000}?)<\/\1>/gi)) add("invisible HTML element", m, 2);
  // Positioned off the page or clipped to nothing: "position:absolute;left:-9999px", "text-indent:-9999px", "clip:rect(0 0 0 0)", "max-height:0;overflow:hidden".
  for (const m of raw.matchAll(/<(\w+)\b[^>]*(?:(?:left|top|right|text-indent|margin-left)\s*:\s*-\d{3,}|clip(?:-path)?\s*:\s*(?:rect\(\s*0|inset\(\s*50%)|(?:max-)?(?:height|width)\s*:\s*0(?:px)?\s*;[^>]*overflow\s*:\s*hidden)[^>]*>([\s\S]{0,2000}?)<\/\1>/gi)) add("invisible HTML element", m, 2);
  // YAML front matter at the top of a description: renderers drop or fold it; keys for the agent are orders.
  const front = /^\s*---\r?\n([\s\S]{0,2000}?)\r?\n---(?:\r?\n|$)/.exec(raw);
  if (front && /(?:^|\n)\s*[\w-]*(?:agent|assistant|model|llm|directive|instruction|system|prompt)[\w-]*\s*:/i.test(front[1] ?? "")) out.push({ kind: "YAML front matter with keys for the agent", start: 0, end: front[0].length, text: `agent: ${front[1]}` });
  for (const m of raw.matchAll(/<details\b[^>]*>([\s\S]{0,4000}?)<\/details>/gi)) out.push({ kind: "collapsed <details> block", start: m.index, end: m.index + m[0].length, text: (m[1] ?? "").replace(/<summary\b[^>]*>[\s\S]*?<\/summary>/i, "") });
  return out;
}

const SHELL = /\b(curl|wget|bash|zsh|powershell|pwsh|iex|invoke-expression|ncat|netcat|nc|python3?|perl|ruby|php|node)\b[^\n]{0,80}(\||;|&&|\s-c\b|\s-e\b|https?:|\/dev\/tcp)|\brm\s+-rf?\b|\bchmod\s+[0-7+]|\/dev\/tcp\/|\bbase64\s+-d\b|\bmkfifo\b|\beval\s*\(|\bexec\s*\(|\|\s*(ba)?sh\b/;
const EXFIL = /https?:\/\/|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b|~\/\.ssh|\bid_(?:rsa|ed25519|ecdsa)\b|(?:^|[\s/'"])\.env\b|\.aws\/|\bcredentials\b|\/etc\/(?:passwd|shadow)/;
const B64 = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const HEX = /(?:\\x[0-9a-fA-F]{2}){12,}|\b(?:[0-9a-fA-F]{2}){16,}\b/g;

/** R4 — base64 or hex blobs whose decoded text is a command, a destination or an injection. */
export function scanEncoded(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  if (raw.length < 24 || scope.field === "name" || scope.field === "property-name") return;
  for (const re of [B64, HEX]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let guard = 0;
    while ((m = re.exec(raw)) !== null && guard++ < 50) {
      const blob = m[0];
      if (re === B64 && !(/[0-9+/=]/.test(blob) && /[a-z]/.test(blob) && /[A-Z]/.test(blob))) continue;
      const text = re === B64 ? decodeBase64(blob) : decodeHex(blob);
      if (!text) continue;
      const lower = text.toLowerCase();
      let severity: Severity | null = null;
      if (SHELL.test(lower) || EXFIL.test(lower)) severity = "critical";
      else if (instructionProbe(lower)) severity = "high";
      else if (lower.split(/\s+/).filter((w) => /^[a-z]{2,}$/.test(w)).length >= 6) severity = "low";
      if (!severity) continue;
      const kind = re === B64 ? "base64" : "hex";
      sink.add(scope, "R4", severity, view.rawEvidence(m.index, m.index + blob.length), `${kind} blob decodes to ${JSON.stringify(clip(text, 100))}`, { decoded: text });
    }
  }
}

function decodeBase64(blob: string): string | null {
  try {
    let s = blob.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    s += "=".repeat((4 - (s.length % 4)) % 4);
    return printable(atob(s));
  } catch {
    return null;
  }
}

function decodeHex(blob: string): string | null {
  const hex = blob.replace(/\\x/g, "");
  let out = "";
  for (let i = 0; i + 1 < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return printable(out);
}

function printable(binary: string): string | null {
  if (binary.length < 8) return null;
  let ok = 0;
  for (let i = 0; i < binary.length; i++) {
    const c = binary.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09 || c === 0x0d) ok++;
  }
  return ok / binary.length >= 0.95 ? binary : null;
}

const SCRIPTS = ["Latin", "Cyrillic", "Greek", "Han", "Hiragana", "Katakana", "Hangul", "Arabic", "Hebrew", "Devanagari", "Thai", "Armenian", "Georgian"] as const;
const SCRIPT_RE = SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, "u")] as const);

function scriptOf(ch: string): string | null {
  for (const [name, re] of SCRIPT_RE) if (re.test(ch)) return name === "Hiragana" || name === "Katakana" ? "Han" : name;
  return /\p{L}/u.test(ch) ? "Other" : null;
}

/** R5 — look-alike letters mixed into Latin words, or a passage in another script. */
export function scanScripts(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  if (isAscii(raw)) return;
  const WORD = /[\p{L}\p{M}]+/gu;
  let mixed: { index: number; text: string } | null = null;
  let mixedCount = 0;
  // The dotless ı is a Latin letter of Turkish and Azeri ("Dosya adı"), not another script: a disguise
  // only inside a host name (an IDN homograph), checked below.
  const disguise = (ch: string) => isLookalike(ch) && ch !== "ı";
  for (let m: RegExpExecArray | null; (m = WORD.exec(raw)) !== null; ) {
    const w = m[0];
    if (/[a-zA-Z]/.test(w) && Array.from(w).some(disguise)) {
      mixed ??= { index: m.index, text: w };
      mixedCount++;
    }
  }
  if (!mixed && raw.includes("ı")) {
    for (const h of HOST_IN_TEXT.flatMap((re) => [...raw.matchAll(re)])) {
      const host = h[1] ?? "";
      const word = /[\p{L}\p{M}]*ı[\p{L}\p{M}]*/u.exec(host);
      if (!word || !/[a-zA-Z]/.test(host)) continue;
      mixed = { index: h.index! + h[0].indexOf(host) + word.index, text: word[0] };
      mixedCount = 1;
      break;
    }
  }
  if (mixed) {
    // A look-alike inside a host name (https://api.stripе.com, agronomy@farmlοgix.com) sends data to a
    // domain registered to look like another one: an IDN homograph, never a typo.
    const inHost = HOST_IN_TEXT.some((re) => [...raw.matchAll(re)].some((h) => Array.from(h[1] ?? "").some(isLookalike)));
    // A confusables checker's own examples are the look-alikes it catches, in its schema values or
    // quoted in its description ("flags cаustomers next to customers").
    const example = scope.tool.describesAttacks && (scope.field === "examples" || scope.field === "enum" || scope.field === "default" || (scope.field === "description" && mixedCount < 3 && !inHost));
    const severity: Severity = example ? "low" : mixedCount >= 3 || inHost || scope.field === "name" || scope.field === "property-name" ? "high" : "medium";
    sink.add(scope, "R5", severity, view.rawEvidence(mixed.index, mixed.index + mixed.text.length), `${mixedCount} word${mixedCount === 1 ? "" : "s"} mixing Latin with look-alike Cyrillic/Greek letters`);
    return;
  }
  // A passage is a sentence (or line) whose letters are at least 80% one script.
  const passages: Array<{ start: number; end: number; script: string }> = [];
  let letters = 0;
  for (const seg of sentences(raw)) {
    const counts = new Map<string, number>();
    let n = 0;
    for (const ch of raw.slice(seg[0], seg[1])) {
      const sc = scriptOf(ch);
      if (!sc) continue;
      n++;
      counts.set(sc, (counts.get(sc) ?? 0) + 1);
    }
    letters += n;
    const [script, k] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
    const min = script === "Han" || script === "Hangul" ? 4 : 8;
    if (script && k >= min && k / n >= 0.8) passages.push({ start: seg[0], end: seg[1], script });
  }
  const first = passages[0]?.script;
  const foreign = passages.filter((p) => p.script !== first);
  if (letters < 30 || !first || !foreign.length) return;
  // A switch is suspicious in itself only a little; a switched passage that names a credential
  // file or a destination is how instructions hide from reviewers who read the first language.
  const risky = foreign.find((p) => SENSITIVE.test(raw.slice(p.start, p.end).toLowerCase()));
  const shown = risky ?? foreign[0]!;
  const message = `a passage in ${shown.script} script after ${first} text${risky ? " that names a sensitive file, secret or destination" : ""}: instructions can hide in a language reviewers skip`;
  sink.add(scope, "R5", risky ? "high" : "low", view.rawEvidence(shown.start, shown.end), message);
}

/** Host names in URLs and mail addresses (any letters: the look-alikes are what is looked for). */
const HOST_IN_TEXT = [/:\/\/([^\s/:?#"'<>]+)/gu, /[\p{L}\p{N}._%+-]+@([\p{L}\p{N}.-]+\.[\p{L}]{2,})/gu];

const SENSITIVE = new RegExp(String.raw`${PATH_TARGETS}|https?:\/\/|\b(?:api[ _-]?key|password|credentials|token)s?\b`);

/** [start, end) of each sentence or line of raw text (a dot inside a path does not end a sentence). */
function sentences(raw: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /[.!?](?=\s|$)|[。！？\n]/g;
  let start = 0;
  for (let m: RegExpExecArray | null; (m = re.exec(raw)) !== null; ) {
    if (m.index + 1 > start) out.push([start, m.index + 1]);
    start = m.index + 1;
  }
  if (start < raw.length) out.push([start, raw.length]);
  return out;
}

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
