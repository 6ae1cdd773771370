// Keys of a tool name that the cross-server rules (R19, R21) compare, so a store can index them
// and hand the rules only the candidate partners instead of the whole fleet. Pure: the same
// functions compute the keys written to the index and the keys the rules check.
import { extractWithLimits } from "./extract";
import { nonAsciiToPrototypes } from "@/lib/text/confusables";
import { normalizeText } from "./normalize";
import type { ToolLike } from "./types";

/** Folded as phrase rules see text: NFKC-style, homoglyphs to Latin, lower case. */
export const foldName = (name: string): string => normalizeText(name).text.trim();

/**
 * The name with case, separators and look-alike characters folded away: "Send-Email" ≡ "send_email",
 * and "reаd_file" (Cyrillic "а") ≡ "read_file". Non-ASCII characters map to their prototypes in
 * Unicode's confusables data (UTS #39), on top of the phrase rules' folding, which runs again after
 * because some prototypes are small capitals or upper case (Cherokee "ꭺ" → "ᴀ"). ASCII stays as it
 * is: "send_emai1" is one edit from "send_email" (the typosquat check), not the same skeleton.
 */
export const nameSkeleton = (name: string): string => foldName(nonAsciiToPrototypes(foldName(name))).replace(/[\s_\-.]+/g, "");

/** Skeletons shorter than this are too short for "one edit away" to mean anything. */
export const MIN_EDIT_SKELETON = 6;

/**
 * What is left of a name once its numbering and versioning are taken out: digit runs, a version
 * marker ("v2", "v1.3") that starts a word, and a plural "s" at the end (but not the second "s"
 * of "access" or "process", whose removal is a typo, not a plural). Two names with the same key
 * are siblings (`svc2_op_3` / `svc0_op_3`, `list_items_v2` / `list_items_v3`, `tool` / `tool_2`,
 * `list_item` / `list_items`): a fleet's numbered copies, not a typosquat. A digit standing in
 * for a letter (`send_emai1` / `send_email`) leaves a different key, so it is still reported.
 */
export function siblingKey(name: string): string {
  return foldName(name)
    .replace(/(^|[\s_\-./:])v\d+(?:\.\d+)*(?=$|[\s_\-./:])/g, "$1")
    .replace(/\d+/g, "")
    .replace(/[\s_\-.]+/g, "")
    .replace(/([^s])s$/, "$1");
}

export const areSiblings = (a: string, b: string): boolean => siblingKey(a) === siblingKey(b);

/** The skeleton and its one-character deletions (symmetric-delete index for edit distance 1). */
export function skeletonVariants(skeleton: string): string[] {
  if (skeleton.length < MIN_EDIT_SKELETON || skeleton.length > 48) return skeleton.length > 48 ? [skeleton] : [];
  return [...new Set([skeleton, ...Array.from(skeleton, (_, i) => skeleton.slice(0, i) + skeleton.slice(i + 1))])];
}

/** Damerau–Levenshtein distance at most 1 (an insertion, deletion, substitution or swap). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return a === b;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const RUN = /[\p{L}\p{N}_\-./:]+/gu;
const SEPARATOR = /[_\-./:]+/g;
const MAX_SEGMENTS = 8;
const MAX_NAME = 128;

/**
 * Every folded identifier a tool's texts could be naming (R19 shadowing, R20 targets): within each
 * run of word characters and name separators, every span that starts and ends on a word boundary
 * (up to 8 segments, 128 characters). A store looks these up by exact folded name, so only tools
 * a text actually mentions are loaded. Name fields are skipped, as scanReferences skips them.
 */
export function referenceCandidates(tools: readonly ToolLike[], extraTexts: readonly string[] = []): string[] {
  const out = new Set<string>();
  const texts = [...extraTexts];
  for (const tool of tools) for (const s of extractWithLimits(tool).strings) if (s.field !== "name" && s.field !== "property-name") texts.push(s.text);
  for (const raw of texts) {
    if (raw.length < 6) continue;
    for (const run of normalizeText(raw).text.matchAll(RUN)) addSpans(run[0], out);
  }
  return [...out];
}

function addSpans(run: string, out: Set<string>): void {
  // Segment boundaries: [start, end) of each word between separators.
  const bounds: Array<[number, number]> = [];
  let last = 0;
  for (const sep of run.matchAll(SEPARATOR)) {
    if (sep.index > last) bounds.push([last, sep.index]);
    last = sep.index + sep[0].length;
  }
  if (last < run.length) bounds.push([last, run.length]);
  for (let i = 0; i < bounds.length; i++) {
    for (let j = i; j < bounds.length && j < i + MAX_SEGMENTS; j++) {
      const span = run.slice(bounds[i]![0], bounds[j]![1]);
      if (span.length > MAX_NAME) break;
      out.add(span);
    }
  }
}
