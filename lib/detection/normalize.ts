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

const UTF16 = new TextDecoder("utf-16le");
const buffers = (size: number) => ({ codes: new Uint16Array(size), starts: new Int32Array(size), ends: new Int32Array(size) });
let scratch = buffers(4096);

export type NormalizeOptions = { foldHomoglyphs?: boolean };

/** Printable ASCII with single spaces and lone line breaks normalizes to its lower case, offset for offset. */
const SIMPLE = /[^\x20-\x7e\n]|\s\s/;

class IdentityMap implements NormalizedText {
  private s?: Int32Array;
  private e?: Int32Array;
  constructor(readonly text: string) {}
  get start(): Int32Array {
    return (this.s ??= Int32Array.from({ length: this.text.length }, (_, i) => i));
  }
  get end(): Int32Array {
    return (this.e ??= Int32Array.from({ length: this.text.length }, (_, i) => i + 1));
  }
}

export function normalizeText(raw: string, options: NormalizeOptions = {}): NormalizedText {
  if (!SIMPLE.test(raw)) return new IdentityMap(raw.toLowerCase());
  const fold = options.foldHomoglyphs ?? true;
  // Shared scratch buffers, at least the input's length (ASCII never emits more than it reads);
  // grown when NFKD expands a character. The result gets its own copies.
  if (scratch.codes.length < raw.length + 16) scratch = buffers(raw.length + 16);
  let { codes, starts, ends } = scratch;
  let cap = codes.length;
  let n = 0;
  let lastWhite = false;
  const emit = (code: number, from: number, to: number) => {
    if (n === cap) {
      cap *= 2;
      const c = new Uint16Array(cap);
      c.set(codes);
      codes = c;
      const st = new Int32Array(cap);
      st.set(starts);
      starts = st;
      const en = new Int32Array(cap);
      en.set(ends);
      ends = en;
      scratch = { codes, starts, ends };
    }
    codes[n] = code;
    starts[n] = from;
    ends[n++] = to;
  };
  for (let i = 0; i < raw.length; ) {
    const unit = raw.charCodeAt(i);
    if (unit < 0x80) {
      const from = i++;
      if (unit === 0x1b) {
        i = from + escapeLength(raw, from);
        continue;
      }
      if (unit === 0x20 || (unit >= 0x09 && unit <= 0x0d)) {
        if (lastWhite) {
          if ((unit === 0x0a || unit === 0x0d) && codes[n - 1] === 0x20) codes[n - 1] = 0x0a;
          ends[n - 1] = i;
        } else {
          // ASCII never emits more units than it reads, so the buffers cannot overflow here.
          codes[n] = unit === 0x0a || unit === 0x0d ? 0x0a : 0x20;
          starts[n] = from;
          ends[n++] = i;
        }
        lastWhite = true;
        continue;
      }
      if (unit < 0x20 || unit === 0x7f) continue;
      codes[n] = unit >= 0x41 && unit <= 0x5a ? unit + 32 : unit;
      starts[n] = from;
      ends[n++] = i;
      lastWhite = false;
      continue;
    }
    const cp = raw.codePointAt(i)!;
    const from = i;
    i += cp > 0xffff ? 2 : 1;
    if (isWhite(cp)) {
      if (lastWhite) {
        if (isBreak(cp) && codes[n - 1] === 0x20) codes[n - 1] = 0x0a;
        ends[n - 1] = i;
      } else emit(isBreak(cp) ? 0x0a : 0x20, from, i);
      lastWhite = true;
      continue;
    }
    if (isInvisible(cp)) continue;
    let s = String.fromCodePoint(cp);
    const direct = fold ? HOMOGLYPHS.get(s) : undefined;
    if (direct) s = direct.toLowerCase();
    else {
      s = s.normalize("NFKD").replace(MARK, "");
      if (fold && s.length) s = Array.from(s, (c) => HOMOGLYPHS.get(c) ?? c).join("");
      s = s.toLowerCase().replace(MARK, "");
    }
    if (!s) continue;
    if (s.trim() === "") {
      if (!lastWhite) emit(0x20, from, i);
      lastWhite = true;
      continue;
    }
    for (let k = 0; k < s.length; k++) emit(s.charCodeAt(k), from, i);
    lastWhite = false;
  }
  return { text: UTF16.decode(codes.subarray(0, n)), start: starts.slice(0, n), end: ends.slice(0, n) };
}

/** Raw offsets of a span of the normalized text. */
export function rawSpan(n: NormalizedText, start: number, end: number): { start: number; end: number } {
  if (!n.text.length) return { start: 0, end: 0 };
  const s = Math.min(Math.max(start, 0), n.text.length - 1);
  const e = Math.min(Math.max(end - 1, s), n.text.length - 1);
  if (n instanceof IdentityMap) return { start: s, end: e + 1 };
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
