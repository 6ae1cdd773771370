// Confusable characters from Unicode's own data (UTS #39 confusables.txt, via the unhomoglyph
// package) instead of a hand-kept table: a Cyrillic "а" in "reаd_file" reads as Latin "a" to a
// person, and to the agent choosing between two servers' tools. Isomorphic (the UI marks them too).
import unhomoglyph from "unhomoglyph";

/**
 * The UTS #39 skeleton: NFD, every character replaced by its confusables.txt prototype, NFD again.
 * Two strings with the same skeleton look alike ("reаd_file" and "read_file"). Note the prototypes
 * are not all letters of the same case ("m" → "rn", "0" → "O", "1" → "l"), so compare skeletons only
 * with skeletons.
 */
export function confusableSkeleton(text: string): string {
  return unhomoglyph(text.normalize("NFD")).normalize("NFD");
}

/**
 * Every non-ASCII character replaced by its confusables.txt prototype; ASCII is left as it is.
 * For index keys of tool names: ASCII-only look-alikes ("rn"/"m", "1"/"l") are the typosquat
 * check's (one edit away), and keeping ASCII names' keys unchanged keeps the stored index valid.
 */
export function nonAsciiToPrototypes(text: string): string {
  return text.replace(/[\u0080-\u{10ffff}]/gu, (ch) => unhomoglyph(ch.normalize("NFD")).normalize("NFD"));
}

export type ConfusableSegment = { kind: "text"; text: string } | { kind: "confusable"; text: string; looksLike: string; codePoints: string };

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;
const ASCII_WORD_CHAR = /[A-Za-z0-9]/;
const hex = (cp: number) => "U+" + cp.toString(16).toUpperCase().padStart(4, "0");

/** What a non-ASCII character passes for, when its prototype is plain ASCII letters or digits. */
function asciiLookalike(ch: string): string | null {
  if (ch.charCodeAt(0) < 0x80) return null;
  const proto = unhomoglyph(ch.normalize("NFD"));
  return proto !== ch && /^[A-Za-z0-9]+$/.test(proto) ? proto : null;
}

/**
 * Marks the characters that pass for ASCII inside a word that mixes them with ASCII letters or
 * digits ("reаd_file", "pаypal"): the mixed-script case UTS #39 calls suspicious. A word wholly in
 * another script (a Russian sentence, "ошибка") is ordinary text and left alone.
 */
export function markConfusables(text: string): ConfusableSegment[] {
  const out: ConfusableSegment[] = [];
  let last = 0;
  const push = (s: string) => {
    if (!s) return;
    const prev = out.at(-1);
    if (prev?.kind === "text") prev.text += s;
    else out.push({ kind: "text", text: s });
  };
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!ASCII_WORD_CHAR.test(word) || /^[A-Za-z0-9_]*$/.test(word)) continue;
    const chars = Array.from(word);
    const looks = chars.map(asciiLookalike);
    if (looks.every((l) => l === null)) continue;
    push(text.slice(last, m.index));
    chars.forEach((ch, i) => {
      const l = looks[i];
      if (l) out.push({ kind: "confusable", text: ch, looksLike: l, codePoints: hex(ch.codePointAt(0)!) });
      else push(ch);
    });
    last = m.index + word.length;
  }
  push(text.slice(last));
  return out;
}
