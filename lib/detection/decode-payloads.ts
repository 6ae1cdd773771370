// Encoded payloads a model can decode on its own: base64, hex, percent-encoding (URL encoding) and
// rot13. Each candidate is decoded and handed back with its span, so the caller can run the phrase
// rules over the decoded text (scan-tools.ts scanDecoded): what the payload SAYS decides, not the
// fact that something is encoded (image data and hashes are encoded too).
export type Payload = { kind: "base64" | "hex" | "url-encoding" | "unicode-escape" | "html-entities" | "rot13" | "reversed" | "leetspeak" | "base32" | "ascii85" | "caesar" | "char-codes"; start: number; end: number; text: string };

const B64 = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const HEX = /(?:\\x[0-9a-fA-F]{2}){12,}|\b(?:[0-9a-fA-F]{2}){16,}\b/g;
/** Runs of \\uXXXX (or \\u{X…}) escapes written out as text, possibly with plain characters between them. */
const UNICODE_ESCAPES = /(?:\\u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})[ \t]?){8,}/g;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+!*'()-])+/g;
/** RFC 4648 base32 (upper case A–Z and 2–7, padded with =): a model decodes it as readily as base64. */
const B32 = /\b[A-Z2-7]{24,}={0,6}(?![A-Za-z0-9+/])/g;
export function decodeBase32(blob: string): string | null {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const ch of blob.replace(/=+$/, "")) {
    const v = alphabet.indexOf(ch);
    if (v < 0) return null;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return printable(new TextDecoder("utf-8", { fatal: false }).decode(Uint8Array.from(bytes)));
}
/** Runs of HTML character references (&#99; &#x63; &lt;), possibly with plain characters between them. */
const HTML_ENTITIES = /(?:&#(?:\d{2,7}|[xX][0-9a-fA-F]{2,6});[ \t]?|&[a-zA-Z]{2,8};){8,}/g;
const NAMED_ENTITY: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
/** A request to read text backwards: what follows is reversed (a model reverses text without being told how). */
const REVERSE_HINT = /\b(?:read\s+(?:this|it|the\s+\w+)\s+backwards|backwards|in\s+reverse(?:\s+order)?|reversed(?:\s+text)?|right[- ]to[- ]left|reverse\s+(?:it|this|the\s+text))\b/i;
/** Leetspeak: words that mix letters with the digits and signs that stand in for them (r34d, p4$$, 70). */
const LEET_WORD = /(?<![\w$@])(?=[\w$@]*[a-z])(?=[\w$@]*[013457$@])[a-z013457$@]{2,}(?![\w$@])/gi;
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", $: "s", "@": "a" };
const ROT13_HINT = /\brot-?13\b|\bcaesar\b/i;
/** Any other letter shift, named as such ("each letter shifted forward by three", "rot-3"): every shift is tried. */
const SHIFT_HINT = /\b(?:shift(?:ed)?\s+(?:\w+\s+){0,3}(?:by|forward|back)|rot-?(?:[1-9]|1[0-24-9]|2[0-5])\b|caesar|letter\s+shift)/i;
/** Adobe Ascii85 between its <~ ~> delimiters (a model knows the format by its brackets). */
const ASCII85 = /<~([!-u\sz]{10,})~>/g;
/** Character codes written out as numbers ("80,117,116,32,…", String.fromCharCode style). */
const CHAR_CODES = /\b(?:\d{2,3}\s*,\s*){11,}\d{2,3}\b/g;
/** Words common in any English instruction: a shift that yields several of them is the right one. */
const ENGLISH = /\b(?:the|and|to|of|for|your|their|it|in|with|this|that|is|be|so|can|all|every|send|read|put|ask|user|password|file|before|after|then)\b/g;
const MAX_PAYLOADS = 20;

export function decodeBase64(blob: string): string | null {
  try {
    let s = blob.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    s += "=".repeat((4 - (s.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
    return printable(new TextDecoder("utf-8", { fatal: false }).decode(bytes));
  } catch {
    return null;
  }
}

export function decodeHex(blob: string): string | null {
  const hex = blob.replace(/\\x/g, "");
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return printable(new TextDecoder("utf-8", { fatal: false }).decode(bytes));
}

/** Ascii85 (btoa's Adobe variant, "z" for four zero bytes) to text, or null. */
export function decodeAscii85(body: string): string | null {
  const chars = body.replace(/\s+/g, "");
  const bytes: number[] = [];
  let group: number[] = [];
  const flush = (n: number) => {
    let value = 0;
    for (const c of group) value = value * 85 + c;
    for (let i = 3; i >= 4 - n; i--) bytes.push((value >>> (i * 8)) & 0xff);
  };
  for (const ch of chars) {
    if (ch === "z" && group.length === 0) {
      bytes.push(0, 0, 0, 0);
      continue;
    }
    const v = ch.charCodeAt(0) - 33;
    if (v < 0 || v > 84) return null;
    group.push(v);
    if (group.length === 5) {
      flush(4);
      group = [];
    }
  }
  if (group.length === 1) return null;
  if (group.length > 0) {
    const n = group.length - 1;
    while (group.length < 5) group.push(84);
    flush(n);
  }
  return printable(new TextDecoder("utf-8", { fatal: false }).decode(Uint8Array.from(bytes)));
}

const shiftLetters = (s: string, k: number) => s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + k) % 26) + (c <= "Z" ? 65 : 97)));

/** The letter shift of `text` that reads most like English (at least 3 common words, more than unshifted), or null. */
function bestShift(text: string): string | null {
  const sample = text.slice(0, 600);
  const score = (s: string) => s.toLowerCase().match(ENGLISH)?.length ?? 0;
  const base = score(sample);
  let best: { k: number; n: number } | null = null;
  for (let k = 1; k < 26; k++) {
    const n = score(shiftLetters(sample, k));
    if (n >= 3 && n > base * 2 && (!best || n > best.n)) best = { k, n };
  }
  return best ? shiftLetters(text, best.k) : null;
}

export const rot13 = (s: string) => shiftLetters(s, 13);

/** Decoded text that reads as text: at least 8 characters, 95% printable (letters of any script count). */
export function printable(text: string): string | null {
  if (text.length < 8) return null;
  let ok = 0;
  for (const ch of text) if (/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t\r]/u.test(ch) && ch !== "\ufffd") ok++;
  return ok / [...text].length >= 0.95 ? text : null;
}

/** Every decodable payload of a raw string (at most 20). */
export function findPayloads(raw: string): Payload[] {
  const out: Payload[] = [];
  if (raw.length < 16) return out;
  const push = (p: Payload | null) => p && out.length < MAX_PAYLOADS && out.push(p);
  for (const m of raw.matchAll(B64)) {
    const blob = m[0];
    if (!(/[0-9+/=]/.test(blob) && /[a-z]/.test(blob) && /[A-Z]/.test(blob))) continue;
    const text = decodeBase64(blob);
    if (text) push({ kind: "base64", start: m.index, end: m.index + blob.length, text });
  }
  for (const m of raw.matchAll(B32)) {
    // Upper-case runs that are also valid base64 were tried above; a word in capitals is not base32 text.
    if (!/[2-7]/.test(m[0])) continue;
    const text = decodeBase32(m[0]);
    if (text && /\s/.test(text)) push({ kind: "base32", start: m.index, end: m.index + m[0].length, text });
  }
  for (const m of raw.matchAll(HEX)) {
    const text = decodeHex(m[0]);
    if (text) push({ kind: "hex", start: m.index, end: m.index + m[0].length, text });
  }
  if (raw.includes("\\u")) {
    for (const m of raw.matchAll(UNICODE_ESCAPES)) {
      const text = printable(m[0].replace(/\\u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/g, (_, braced: string | undefined, four: string | undefined) => String.fromCodePoint(parseInt(braced ?? four ?? "0", 16))));
      if (text) push({ kind: "unicode-escape", start: m.index, end: m.index + m[0].length, text });
    }
  }
  if (raw.includes("%")) {
    for (const m of raw.matchAll(PERCENT_RUN)) {
      if ((m[0].match(/%[0-9A-Fa-f]{2}/g)?.length ?? 0) < 4) continue;
      try {
        const text = printable(decodeURIComponent(m[0].replace(/\+/g, " ")));
        if (text && text !== m[0]) push({ kind: "url-encoding", start: m.index, end: m.index + m[0].length, text });
      } catch {
        // not valid percent-encoding: nothing a model would decode either
      }
    }
  }
  if (raw.includes("&")) {
    for (const m of raw.matchAll(HTML_ENTITIES)) {
      const decoded = m[0].replace(/&#(?:[xX]([0-9a-fA-F]{2,6})|(\d{2,7}));|&([a-zA-Z]{2,8});/g, (whole, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
        const code = hex ? parseInt(hex, 16) : dec ? Number(dec) : -1;
        if (code >= 0) return code <= 0x10ffff ? String.fromCodePoint(code) : "";
        return NAMED_ENTITY[named!.toLowerCase()] ?? whole;
      });
      const text = printable(decoded);
      if (text) push({ kind: "html-entities", start: m.index, end: m.index + m[0].length, text });
    }
  }
  const reverse = REVERSE_HINT.exec(raw);
  if (reverse) {
    const after = raw.slice(reverse.index + reverse[0].length).replace(/^[\s:)\].,;-]+/, "");
    if (after.length >= 16) push({ kind: "reversed", start: raw.length - after.length, end: raw.length, text: [...after].reverse().join("") });
  }
  // Enough mixed words to be a sentence in leetspeak, not a version string or a bucket name (s3, ec2).
  const leet = !/[a-z][013457$@]|[013457$@][a-z]/i.test(raw) ? [] : raw.match(LEET_WORD)?.filter((w) => /[a-z]/i.test(w) && /[013457$@]/.test(w) && !/^(?:v\d|s3|ec2|[a-z]\d+$)/i.test(w)) ?? [];
  if (leet.length >= 4) push({ kind: "leetspeak", start: 0, end: raw.length, text: raw.replace(/[013457$@]/g, (c) => LEET[c] ?? c) });
  if (raw.includes("<~")) {
    for (const m of raw.matchAll(ASCII85)) {
      const text = decodeAscii85(m[1]!);
      if (text) push({ kind: "ascii85", start: m.index, end: m.index + m[0].length, text });
    }
  }
  if (/\d,\s*\d/.test(raw)) {
    for (const m of raw.matchAll(CHAR_CODES)) {
      const codes = m[0].split(/\s*,\s*/).map(Number);
      if (codes.some((c) => c < 9 || c > 126)) continue;
      const text = printable(String.fromCharCode(...codes));
      if (text && /[a-z]{3,}\s+[a-z]{2,}/i.test(text)) push({ kind: "char-codes", start: m.index, end: m.index + m[0].length, text });
    }
  }
  const shift = SHIFT_HINT.exec(raw);
  if (shift) {
    const after = raw.slice(shift.index + shift[0].length).replace(/^[^A-Za-z]*?(?:to\s+read\)?\s*:?\s*)?/, "");
    const body = after.length >= 16 ? after : raw;
    const best = bestShift(body);
    if (best) push({ kind: "caesar", start: raw.length - body.length, end: raw.length, text: best });
  }
  const hint = ROT13_HINT.exec(raw);
  if (hint) {
    // The payload is what follows the hint (or the whole text when the hint ends it).
    const after = raw.slice(hint.index + hint[0].length).replace(/^[\s:)\]-]+/, "");
    const [start, body] = after.length >= 16 ? [raw.length - after.length, after] : [0, raw];
    push({ kind: "rot13", start, end: raw.length, text: rot13(body) });
  }
  return out;
}
