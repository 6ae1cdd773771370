import { canonicalKey, isObject, joinPointer, jsonKeys } from "./json";
import type { ToolLike } from "./types";

/** A tool with its identity in the list: the name, or name + occurrence for repeated names. */
export type Keyed = { key: string; name: string; occurrence: number; index: number; tool: ToolLike };

/**
 * Tools are keyed by name. A name listed twice is a defect (and a collision risk, R21), but the
 * copies must still be compared, so the k-th copy of a name pairs with the k-th copy on the other side.
 */
export function keyTools(tools: readonly ToolLike[]): Keyed[] {
  const seen = new Map<string, number>();
  return tools.map((tool, index) => {
    const name = String(tool.name);
    const occurrence = (seen.get(name) ?? 0) + 1;
    seen.set(name, occurrence);
    return { key: occurrence === 1 ? name : `${name}\u0000${occurrence}`, name, occurrence, index, tool };
  });
}

export type RenamePair = { removed: Keyed; added: Keyed; similarity: number };

type Profile = {
  k: Keyed;
  /** Canonical JSON of everything but name and title: equal bodies are a rename whatever the threshold. */
  body: string;
  /** Interned ids (numbers hash and compare faster than the long strings they stand for). */
  words: Set<number>;
  input: Set<number>;
  output: Set<number>;
  /** Interned canonical schemas: equal ids skip the set comparison. */
  inputId: number;
  outputId: number;
  /** Annotations and every other field, as one canonical string. */
  rest: string;
  /** Input property names: the bucket key when there are too many pairs to score them all. */
  props: string;
  /** Enough to go on: a description of a few words, or declared arguments. */
  substantive: boolean;
};

const MAX_LEAVES = 2_000;

type Interner = (text: string) => number;

function interner(): Interner {
  const ids = new Map<string, number>();
  return (text) => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    return id;
  };
}

function profile(k: Keyed, intern: Interner): Profile {
  const body: Record<string, unknown> = { ...k.tool };
  delete body.name;
  delete body.title;
  const { description, inputSchema, outputSchema, ...rest } = body;
  const words = new Set((typeof description === "string" ? description.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [] : []).map((w) => intern(`w:${w}`)));
  const props = isObject(inputSchema) && isObject(inputSchema.properties) ? jsonKeys(inputSchema.properties).sort() : [];
  return {
    k,
    body: canonicalKey(body),
    words,
    input: leaves(inputSchema, intern),
    output: leaves(outputSchema, intern),
    inputId: intern(`i:${canonicalKey(inputSchema)}`),
    outputId: intern(`o:${canonicalKey(outputSchema)}`),
    rest: canonicalKey(rest),
    props: JSON.stringify(props),
    substantive: words.size >= 2 || props.length > 0,
  };
}

/** "pointer=value" for every scalar in a JSON value: a set whose overlap measures structural similarity. */
function leaves(value: unknown, intern: Interner): Set<number> {
  const out = new Set<number>();
  const visit = (v: unknown, p: string, depth: number) => {
    if (out.size >= MAX_LEAVES || depth > 64) return;
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, joinPointer(p, i), depth + 1));
    else if (isObject(v)) for (const key of jsonKeys(v)) visit(v[key], joinPointer(p, key), depth + 1);
    else out.add(intern(`${p}=${JSON.stringify(v)}`));
  };
  visit(value, "", 0);
  return out;
}

function jaccard(a: Set<number>, b: Set<number>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const x of small) if (large.has(x)) common++;
  return common / (a.size + b.size - common);
}

/** Below either gate a pair is never a rename: the description and the arguments carry a tool's identity. */
const DESCRIPTION_GATE = 0.75;
const INPUT_GATE = 0.6;

/**
 * Body similarity in 0..1, weighted towards the description (what the model reads) and the input
 * schema (what callers send). "Read a file" vs "Delete a file" over the same arguments scores 0:
 * one verb in four words is too much change to call it the same tool.
 */
function similarity(x: Profile, y: Profile): number {
  if (!x.substantive || !y.substantive) return 0;
  const ratio = Math.min(x.words.size, y.words.size) / Math.max(x.words.size, y.words.size, 1);
  if (x.words.size + y.words.size > 0 && ratio < DESCRIPTION_GATE) return 0;
  const desc = jaccard(x.words, y.words);
  if (desc < DESCRIPTION_GATE) return 0;
  const sameInput = x.inputId === y.inputId;
  if (!sameInput && Math.min(x.input.size, y.input.size) / Math.max(x.input.size, y.input.size, 1) < INPUT_GATE) return 0;
  const input = sameInput ? 1 : jaccard(x.input, y.input);
  if (input < INPUT_GATE) return 0;
  const output = x.outputId === y.outputId ? 1 : jaccard(x.output, y.output);
  return 0.6 * desc + 0.25 * input + 0.05 * output + 0.1 * (x.rest === y.rest ? 1 : 0);
}

export type RenameOptions = { threshold: number; maxPairs: number };

/**
 * Pairs removed with added tools that are the same tool under a new name (detection-rules R30).
 * Identical bodies always pair (hash lookup). Then, if removed×added ≤ maxPairs, every pair is
 * scored; otherwise only pairs sharing their input property names, still at most maxPairs. Best
 * scores pair first, each tool at most once.
 */
export function detectRenames(removed: Keyed[], added: Keyed[], opts: RenameOptions): { pairs: RenamePair[]; search: "full" | "bucketed" } {
  const pairs: RenamePair[] = [];
  if (!removed.length || !added.length) return { pairs, search: "full" };
  const intern = interner();
  const rp = removed.map((k) => profile(k, intern));
  const ap = added.map((k) => profile(k, intern));

  const byBody = new Map<string, Profile[]>();
  for (const p of ap) if (p.substantive) byBody.set(p.body, [...(byBody.get(p.body) ?? []), p]);
  const used = new Set<Profile>();
  const restR: Profile[] = [];
  for (const r of rp) {
    const match = r.substantive ? byBody.get(r.body)?.find((p) => !used.has(p)) : undefined;
    if (!match) {
      restR.push(r);
      continue;
    }
    used.add(match);
    pairs.push({ removed: r.k, added: match.k, similarity: 1 });
  }
  const restA = ap.filter((p) => !used.has(p));
  if (!restR.length || !restA.length) return { pairs, search: "full" };

  const full = restR.length * restA.length <= opts.maxPairs;
  // Scored pairs in parallel number arrays (not one object each): up to maxPairs of them.
  const sr: number[] = [];
  const sa: number[] = [];
  const ss: number[] = [];
  let budget = opts.maxPairs;
  const score = (ri: number, ai: number) => {
    budget--;
    const s = similarity(restR[ri]!, restA[ai]!);
    if (s < opts.threshold) return;
    sr.push(ri);
    sa.push(ai);
    ss.push(s);
  };
  if (full) {
    for (let ri = 0; ri < restR.length; ri++) for (let ai = 0; ai < restA.length; ai++) score(ri, ai);
  } else {
    const buckets = new Map<string, number[]>();
    restA.forEach((a, ai) => buckets.set(a.props, [...(buckets.get(a.props) ?? []), ai]));
    outer: for (let ri = 0; ri < restR.length; ri++) {
      for (const ai of buckets.get(restR[ri]!.props) ?? []) {
        if (budget <= 0) break outer;
        score(ri, ai);
      }
    }
  }
  // Best first; ties in list order, so the result never depends on anything but the input.
  const order = Uint32Array.from(ss.keys()).sort((i, j) => ss[j]! - ss[i]! || sr[i]! - sr[j]! || sa[i]! - sa[j]!);
  const takenR = new Set<number>();
  for (const i of order) {
    const r = restR[sr[i]!]!;
    const a = restA[sa[i]!]!;
    if (takenR.has(sr[i]!) || used.has(a)) continue;
    takenR.add(sr[i]!);
    used.add(a);
    pairs.push({ removed: r.k, added: a.k, similarity: Math.round(ss[i]! * 1000) / 1000 });
  }
  return { pairs, search: full ? "full" : "bucketed" };
}
