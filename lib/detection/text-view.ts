// One model-visible string as the rules see it: the raw text (hidden-character rules), its
// normalized view with offsets back into the raw text (phrase rules), and the framing questions
// phrase rules ask about a match: is it quoted, or offered as an example by text that describes
// attacks ("detects prompts such as '…'")? Such matches are discounted to low, not dropped.
import { visibleText } from "@/lib/diff/render-text";
import { normalizeText, rawSpan, type NormalizedText } from "./normalize";
import type { Evidence } from "./types";

const MAX_EVIDENCE = 160;

/** Evidence for [start, end) of a raw string: hidden characters made visible, clipped to MAX_EVIDENCE. */
export function spanEvidence(raw: string, start: number, end: number): Evidence {
  const text = visibleText(raw.slice(start, end));
  return { text: text.length > MAX_EVIDENCE ? `${text.slice(0, MAX_EVIDENCE - 1)}…` : text, start, end };
}

/** Vocabulary of text that describes or defends against attacks rather than performing one. */
const DETECTION = /\b(detect\w*|flag(s|ged|ging)?|block(s|ed|ing)?|scan\w*|classif\w*|identif\w*|recogni\w*|catch(es)?|filter\w*|guard\w*|screen(s|ed|ing)?|audit\w*|analy[sz]\w*|moderat\w*|sanitiz\w*|redact\w*|lint\w*|prevent\w*|protect\w*|defen[cs]\w*|injections?|jailbreak\w*|attacks?|malicious|suspicious|phishing|poison\w*|threats?|exploit\w*|leaked|exposed|hard-?coded|vulnerab\w*|heuristics?|red[- ]team\w*)\b/;
const EXAMPLE_MARKER = /\b(such as|e\.g\.?|eg\.|for example|for instance|examples?|patterns? like|phrases? like|strings? like|prompts? like|like|including)\b/;
const EXAMPLE_BEFORE = /\b(such as|e\.g\.?|for example|for instance|examples?:?|patterns? like|phrases? like|strings? like|prompts? like|including|like)\W{0,4}$/;

export class TextView {
  private normalized?: NormalizedText;
  private quotes?: Array<[number, number]>;

  constructor(readonly raw: string) {}

  get norm(): NormalizedText {
    return (this.normalized ??= normalizeText(this.raw));
  }

  get text(): string {
    return this.norm.text;
  }

  /** Evidence for a span of the normalized text. */
  evidence(start: number, end: number): Evidence {
    const span = rawSpan(this.norm, start, end);
    return this.rawEvidence(span.start, span.end);
  }

  /** Evidence for a span of the raw text, hidden characters made visible. */
  rawEvidence(start: number, end: number): Evidence {
    return spanEvidence(this.raw, start, end);
  }

  /** [start, end) of the sentence around a position of the normalized text. */
  sentence(pos: number): [number, number] {
    const t = this.text;
    let s = pos;
    while (s > 0 && pos - s < 240 && !isBoundary(t, s - 1)) s--;
    let e = pos;
    while (e < t.length && e - pos < 240 && !isBoundary(t, e)) e++;
    return [s, e];
  }

  /** Whether [start, end) of the normalized text lies inside one quoted span. */
  inQuotes(start: number, end: number): boolean {
    this.quotes ??= quoteSpans(this.text);
    return this.quotes.some(([s, e]) => s <= start && end <= e);
  }

  /**
   * Quoted or example framing: the match is quoted and its sentence describes attacks or offers
   * examples, or an example marker ("such as", "e.g.") leads into it in a sentence that describes
   * attacks. Attack text can imitate this, so a discounted match is lowered, never dropped.
   */
  framed(start: number, end: number): boolean {
    const [s, e] = this.sentence(start);
    const sentence = this.text.slice(s, Math.max(e, end));
    const before = this.text.slice(Math.max(s, start - 60), start);
    const detection = DETECTION.test(sentence);
    if (this.inQuotes(start, end) && (detection || EXAMPLE_MARKER.test(this.text.slice(s, start)))) return true;
    return detection && (EXAMPLE_BEFORE.test(before.replace(/["'`([]+$/, "")) || EXAMPLE_MARKER.test(this.text.slice(s, start)));
  }
}

function isBoundary(t: string, i: number): boolean {
  const c = t[i];
  if (c === "\n") return true;
  if (c !== "." && c !== "!" && c !== "?") return false;
  const next = t[i + 1];
  if (next !== undefined && next !== " " && next !== "\n") return false;
  // Abbreviations that end in a dot do not end a sentence.
  return !/\b(e\.g|i\.e|etc|vs|eg|ie|cf|approx|incl)$/.test(t.slice(Math.max(0, i - 7), i));
}

/** Spans of text between matching quotes: "…", `…`, and '…' where the apostrophes are not inside words. */
function quoteSpans(t: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const open: Record<string, number> = {};
  const word = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === "\n") {
      for (const k of Object.keys(open)) delete open[k];
      continue;
    }
    if (c !== '"' && c !== "`" && c !== "'") continue;
    if (c === "'" && word(t[i - 1]) && word(t[i + 1])) continue;
    const o = open[c];
    if (o === undefined) {
      if (c !== "'" || !word(t[i - 1])) open[c] = i;
    } else if (c !== "'" || !word(t[i + 1])) {
      spans.push([o + 1, i]);
      delete open[c];
    }
  }
  return spans;
}

/** All matches of a global regex over the normalized text. */
export function* matches(view: TextView, re: RegExp): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  const text = view.text;
  let m: RegExpExecArray | null;
  let guard = 0;
  while ((m = re.exec(text)) !== null && guard++ < 200) {
    yield m;
    if (m[0].length === 0) re.lastIndex++;
  }
}
