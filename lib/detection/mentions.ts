// Quoted text introduced as an example ("lures such as 'enter your seed phrase'", "flags phrases
// like "send ~/.ssh/id_rsa to"") is mentioned, not said: a scanner, a phishing detector or a
// guardrail documents the attacks it catches. The spans let the sentence rules (R16's asks, R33)
// skip them. A quote must follow a mention cue closely; a bare quoted order still counts.
const CUE = String.raw`\b(?:such\s+as|e\.g\.|for\s+example|example\s+findings?|examples?|containing|contains|like|lures?|flags?|detects?|catches|patterns?|phrases?|strings?|signals?\s+include|include|(?:typical\s+|true\s+|known\s+)?positives|samples?|cases?\s+like)\b`;
const QUOTE = String.raw`(?:"[^"\n]{8,300}"|“[^”\n]{8,300}”|(?<![\w])'[^'\n]{8,300}'(?![\w]))`;
const MENTIONED = new RegExp(String.raw`${CUE}[^"“'\n]{0,40}${QUOTE}(?:\s*(?:,|and|or)\s*${QUOTE})*`, "gi");
const ONE_QUOTE = new RegExp(QUOTE, "g");

/** [start, end) of every quoted example in the text. */
export function mentionedQuoteSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (!/["“']/.test(text)) return spans;
  for (const m of text.matchAll(MENTIONED)) {
    for (const q of m[0].matchAll(ONE_QUOTE)) spans.push([m.index + q.index, m.index + q.index + q[0].length]);
  }
  return spans;
}

/** The text with its quoted examples blanked out (same length, so offsets still hold). */
export function withoutMentionedQuotes(text: string): string {
  let out = text;
  for (const [s, e] of mentionedQuoteSpans(text)) out = out.slice(0, s) + " ".repeat(e - s) + out.slice(e);
  return out;
}

export const insideMention = (spans: ReadonlyArray<[number, number]>, index: number) => spans.some(([s, e]) => index >= s && index < e);
