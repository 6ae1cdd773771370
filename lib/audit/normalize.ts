// Text as phrase rules see it: NFKC-style compatibility folding (NFKD minus combining marks, so
// "ｉｇｎｏｒｅ" and "ïgnore" read "ignore"), zero-width/format characters and terminal escapes
// removed, Cyrillic/Greek/small-caps look-alikes mapped to Latin, lower case, whitespace runs
// collapsed (to "\n" when the run held a line break). Every output character keeps the raw offsets
// it came from, so evidence spans point into the raw text. Hidden-character rules (R1, R2) never
// look at this view: they read the raw text.

export type NormalizedText = {
  text: string;
  /** For each output UTF-16 unit: start offset of its source code point in the raw string. */
  start: Int32Array;
  /** For each output UTF-16 unit: end offset (exclusive) of its source code point in the raw string. */
  end: Int32Array;
};

const pairs = (latin: string, others: string) => Array.from(others).map((ch, i) => [ch, latin[i]!] as const);

/** Look-alikes → Latin (lower case; applied before lower-casing, so both cases are listed). */
const HOMOGLYPHS = new Map<string, string>([
  // Cyrillic
  ...pairs("abcehkmoptxyABEHKMOPCTXYijsdqwIJSl", "авсеһкмортхуАВЕНКМОРСТХУіјѕԁԛԝІЈЅӏ"),
  ["ё", "e"], ["Ё", "e"], ["г", "r"], ["п", "n"], ["ь", "b"], ["ԍ", "g"], ["ɡ", "g"], ["ү", "y"], ["Ү", "y"], ["ѵ", "v"], ["Ԝ", "w"],
  // Greek
  ...pairs("aikouvxyABEZHIKMNOPTYX", "αικουνχγΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"),
  ["ο", "o"], ["ρ", "p"], ["τ", "t"], ["ε", "e"], ["ϲ", "c"], ["ϳ", "j"], ["ѡ", "w"],
  // Latin small capitals and other look-alikes (NFKD leaves these alone)
  ...pairs("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ"),
  ["ı", "i"], ["ȷ", "j"], ["ɑ", "a"], ["ɩ", "i"], ["ℓ", "l"],
  // Punctuation that phrase rules treat as one thing
  ...pairs('""""""\'\'\'\'\'--', "“”„‟«»‘’‚‛′–—"),
]);

/** A Cyrillic, Greek or small-capital letter that reads as a Latin one. */
export const isLookalike = (ch: string) => ch.charCodeAt(0) > 0x7f && HOMOGLYPHS.has(ch) && !/[\u2013\u2014\u2018-\u201f\u2032\u00ab\u00bb]/.test(ch);

const isWhite = (cp: number) => cp === 0x20 || cp === 0x09 || cp === 0x0a || cp === 0x0d || cp === 0x0b || cp === 0x0c || cp === 0xa0 || cp === 0x85 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000;
const isBreak = (cp: number) => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;

const FORMAT = /^[\p{Cf}\p{Cc}]$/u;
const MARK = /\p{M}/gu;

/** Characters that render as nothing or are not text at all: dropped from the matching view. */
export function isInvisible(cp: number): boolean {
  if (cp < 0x80) return cp < 0x20 ? !isWhite(cp) : cp === 0x7f;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0xe0000 && cp <= 0xe007f)) return true;
  if (cp === 0x034f || cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0 || cp === 0x180e) return true;
  return !isWhite(cp) && FORMAT.test(String.fromCodePoint(cp));
}

/** Length of an ANSI escape sequence starting at `i` (ESC), or 1 for a lone ESC. */
export function escapeLength(raw: string, i: number): number {
  const next = raw[i + 1];
  if (next === "[") {
    let j = i + 2;
    while (j < raw.length && j - i < 64) {
      const c = raw.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e) return j - i + 1;
      j++;
    }
    return j - i;
  }
  if (next === "]") {
    const bell = raw.indexOf("\u0007", i + 2);
    const st = raw.indexOf("\u001b\\", i + 2);
    const ends = [bell >= 0 ? bell + 1 : -1, st >= 0 ? st + 2 : -1].filter((e) => e > 0);
    return ends.length ? Math.min(...ends) - i : Math.min(raw.length - i, 2);
  }
  return next !== undefined && next >= "@" && next <= "_" ? 2 : 1;
}

export type NormalizeOptions = { foldHomoglyphs?: boolean };

export function normalizeText(raw: string, options: NormalizeOptions = {}): NormalizedText {
  const fold = options.foldHomoglyphs ?? true;
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let lastWhite = false;
  const push = (s: string, from: number, to: number) => {
    for (let k = 0; k < s.length; k++) {
      out.push(s[k]!);
      starts.push(from);
      ends.push(to);
    }
  };
  for (let i = 0; i < raw.length; ) {
    const cp = raw.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    const from = i;
    i += size;
    if (cp === 0x1b) {
      i = from + escapeLength(raw, from);
      continue;
    }
    if (isWhite(cp)) {
      if (lastWhite) {
        if (isBreak(cp) && out[out.length - 1] === " ") out[out.length - 1] = "\n";
        ends[ends.length - 1] = i;
      } else push(isBreak(cp) ? "\n" : " ", from, i);
      lastWhite = true;
      continue;
    }
    if (cp < 0x80) {
      if (cp < 0x20 || cp === 0x7f) continue;
      push(cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : String.fromCharCode(cp), from, i);
      lastWhite = false;
      continue;
    }
    if (isInvisible(cp)) continue;
    let s = String.fromCodePoint(cp);
    const direct = fold ? HOMOGLYPHS.get(s) : undefined;
    if (direct) s = direct;
    else {
      s = s.normalize("NFKD").replace(MARK, "");
      if (fold && s.length) s = Array.from(s, (c) => HOMOGLYPHS.get(c) ?? c).join("");
      s = s.toLowerCase().replace(MARK, "");
    }
    if (!s) continue;
    if (s.trim() === "") {
      if (!lastWhite) push(" ", from, i);
      lastWhite = true;
      continue;
    }
    push(s.toLowerCase(), from, i);
    lastWhite = false;
  }
  return { text: out.join(""), start: Int32Array.from(starts), end: Int32Array.from(ends) };
}

/** Raw offsets of a span of the normalized text. */
export function rawSpan(n: NormalizedText, start: number, end: number): { start: number; end: number } {
  if (!n.text.length) return { start: 0, end: 0 };
  const s = Math.min(Math.max(start, 0), n.text.length - 1);
  const e = Math.min(Math.max(end - 1, s), n.text.length - 1);
  return { start: n.start[s]!, end: n.end[e]! };
}

/** snake_case, kebab-case, dotted and camelCase identifiers as words ("contentFromReading_ssh" → "content from reading ssh"). */
export function expandIdentifier(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim();
}
