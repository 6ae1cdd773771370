// Untrusted tool text may hide instructions in characters a person cannot see. The UI shows
// each one as a visible marker; Unicode tag characters (U+E0000–E007F) are decoded, since they
// spell ASCII that models read but people do not.

export type TextSegment =
  | { kind: "text"; text: string }
  | { kind: "hidden"; label: string; codePoints: string; decoded?: string };

const NAMES: Record<number, string> = {
  0x00ad: "SOFT HYPHEN",
  0x034f: "COMBINING GRAPHEME JOINER",
  0x061c: "ARABIC LETTER MARK",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x202a: "LRE",
  0x202b: "RLE",
  0x202c: "PDF",
  0x202d: "LRO",
  0x202e: "RLO",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LRI",
  0x2067: "RLI",
  0x2068: "FSI",
  0x2069: "PDI",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
};

const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;

export function hiddenCharName(cp: number): string | null {
  if (NAMES[cp]) return NAMES[cp]!;
  if (isTag(cp)) return "TAG";
  if ((cp < 0x20 && cp !== 0x0a && cp !== 0x09) || (cp >= 0x7f && cp <= 0x9f)) return "CONTROL";
  if (cp >= 0xfe00 && cp <= 0xfe0f) return "VARIATION SELECTOR";
  if (cp >= 0xe0100 && cp <= 0xe01ef) return "VARIATION SELECTOR";
  if ((cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0x10ffff && !isTag(cp))) return "PRIVATE USE";
  return null;
}

const hex = (cp: number) => "U+" + cp.toString(16).toUpperCase().padStart(4, "0");

/** Splits text into visible runs and runs of hidden characters (a run of tag characters is one segment). */
export function revealHidden(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  let plain = "";
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i]!.codePointAt(0)!;
    const name = hiddenCharName(cp);
    if (!name) {
      plain += chars[i];
      continue;
    }
    if (plain) out.push({ kind: "text", text: plain });
    plain = "";
    if (isTag(cp)) {
      const run: number[] = [];
      while (i < chars.length && isTag(chars[i]!.codePointAt(0)!)) run.push(chars[i++]!.codePointAt(0)!);
      i--;
      const decoded = run.map((c) => (c >= 0xe0020 && c <= 0xe007e ? String.fromCharCode(c - 0xe0000) : "")).join("");
      out.push({ kind: "hidden", label: `${run.length} TAG chars`, codePoints: `${hex(run[0]!)}…`, decoded });
    } else {
      out.push({ kind: "hidden", label: name, codePoints: hex(cp) });
    }
  }
  if (plain) out.push({ kind: "text", text: plain });
  return out;
}

export function countHidden(text: string): number {
  return revealHidden(text).filter((s) => s.kind === "hidden").length;
}
