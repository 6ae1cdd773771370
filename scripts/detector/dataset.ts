// The learned-scorer experiment's data: every tool-list case of the TUNING corpus (never held-out/), each item
// (tool, prompt, resource, template, instructions) with its feature vector, and what each entity's
// aggregated severity would be with no R34 finding, an R34 at medium or one at high, or with its items
// vetoed, so the cross-validation can judge the fusion for any thresholds without rescanning.
import { aggregateSeverity, groupByEntity } from "@/lib/detection/severity";
import { itemFeatures, type FeatureBlocks, type NamedValue, type SparseVector } from "@/lib/detection/learned/features";
import { sentenceVectors } from "@/lib/detection/learned/sentences";
import { scanToolsDetailed, vetoReplacements, type ScannedItem } from "@/lib/detection/scan-tools";
import { SEVERITY_RANK, type AuditFinding, type AuditRuleId, type Severity } from "@/lib/detection";
import { loadCorpus, type CorpusCase } from "@/tests/fixtures/audit-corpus/evaluate";

/** Feature subsets compared by the cross-validation ("all" is what the product computes). */
export const VARIANTS = {
  all: {},
  text: { rules: false },
  "chars+structure": { words: false, rules: false },
  "words+structure": { chars: false, rules: false },
  structure: { chars: false, words: false, rules: false },
  "structure+rules": { chars: false, words: false },
} satisfies Record<string, FeatureBlocks>;
export type Variant = keyof typeof VARIANTS;

export type Item = {
  /** The entity key findings group under (severity.ts groupByEntity). */
  key: string;
  /** Feature vectors by variant name (VARIANTS): those `caseData` was asked for. */
  x: Partial<Record<Variant, SparseVector>>;
  /** The rules' aggregated severity on this item (rank, -1 for none). */
  ruleRank: number;
  /** The sentence view's vectors (lib/detection/learned/sentences.ts), one per sentence. */
  sentences: SparseVector[];
  /** The item's named features (features.ts, every block): what the stack reads beside the views. */
  named: NamedValue[];
};

export type CaseData = {
  id: string;
  file: string;
  label: 0 | 1;
  items: Item[];
  /** Aggregated severity rank per entity with no R34 / R34 medium / R34 high / its items vetoed. Entities without an item keep index 0. */
  entities: Map<string, [number, number, number, number]>;
};

const rank = (s: Severity | null) => (s ? SEVERITY_RANK[s] : -1);
/**
 * The finding the scorer would add under a new rule id ("R34"): aggregation (severity.ts) counts it
 * as one more distinct rule. Only its id, severity and discount are read there.
 */
const learned = (severity: Severity): AuditFinding => ({ ruleId: "R34" as AuditRuleId, family: "C", severity, toolName: null, pointer: "", evidence: { text: "", start: 0, end: 0 }, message: "" });

/**
 * The tuning split as tool lists, sorted by file then id (deterministic input order): every tool-list
 * case, and what each change case changed (`changedToolCases`).
 */
export function tuningCases(): CorpusCase[] {
  return loadCorpus()
    .filter((c) => c.split === "tuning")
    .flatMap((c) => (c.kind === "change" ? changedToolCases(c) : [c]))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A change between two listings as tool lists the scorer can learn from. The tools of the later
 * listing that are new or differ from the earlier one are what the alert pipeline judges
 * (lib/alerts/judge.ts), so they carry the change's label (`<id>#after`). When the change is
 * malicious, the earlier versions of those same tools are what the server showed before it turned,
 * so they are honest by the case's own account (`<id>#before`, benign): with the later versions they
 * make a twin pair written by the attacker, one text with and without the poison. A tool only
 * renamed has no earlier version by that name and adds nothing here.
 */
export function changedToolCases(c: CorpusCase): CorpusCase[] {
  const before = c.before ?? [];
  const previous = new Map(before.map((t) => [String(t.name), JSON.stringify(t)]));
  const changed = (c.after ?? []).filter((t) => previous.get(String(t.name)) !== JSON.stringify(t));
  if (!changed.length) return [];
  const asList = (id: string, label: CorpusCase["label"], tools: CorpusCase["tools"]): CorpusCase => ({ ...c, id, label, kind: "tools", tools, before: undefined, after: undefined });
  const after = asList(`${c.id}#after`, c.label, changed);
  const changedNames = new Set(changed.map((t) => String(t.name)));
  const earlier = before.filter((t) => changedNames.has(String(t.name)));
  return c.label === "malicious" && earlier.length ? [after, asList(`${c.id}#before`, "benign", earlier)] : [after];
}

/**
 * One case's items as the product scans them (scan-tools.ts scanToolsDetailed, the rules alone):
 * each tool, then each prompt, resource and template, then the server instructions, each with
 * what the scorer reads and the rules' own findings on it; and every finding of the scan
 * (collisions and length outliers included), for the entities.
 */
export function itemInputs(c: CorpusCase): { items: ScannedItem[]; findings: AuditFinding[] } {
  // The rules alone: the learned scorer's own verdict (R35) is what is being trained.
  return scanToolsDetailed(c.tools ?? [], { otherServers: c.otherServers, instructions: c.instructions, prompts: c.prompts, resources: c.resources, resourceTemplates: c.resourceTemplates, learned: false });
}

/** The item's vector of `variant`; throws when `caseData` did not compute it. */
export function vectorOf(item: Item, variant: Variant): SparseVector {
  const v = item.x[variant];
  if (!v) throw new Error(`feature variant "${variant}" was not computed for this case (caseData's variants)`);
  return v;
}

/** One case's data, with feature vectors of `variants` only (every variant by default; the product's is "all"). */
export function caseData(c: CorpusCase, variants: readonly Variant[] = Object.keys(VARIANTS) as Variant[]): CaseData {
  const { items: scanned, findings } = itemInputs(c);
  const groups = groupByEntity(findings);
  const items = scanned.map(({ key, input }) => {
    // Every block, as the product computes (VARIANTS.all): its vector serves "all", its named features the stack.
    const full = itemFeatures(input);
    return {
      key,
      x: Object.fromEntries(variants.map((k) => [k, k === "all" ? full.vector : itemFeatures(input, VARIANTS[k]).vector])),
      ruleRank: rank(aggregateSeverity(input.findings).severity),
      sentences: sentenceVectors(input),
      named: full.named,
    };
  });
  // What the veto would leave of each entity: its items' own findings discounted, list-level ones kept.
  const vetoed = vetoReplacements(scanned, () => true);
  const entities = new Map<string, [number, number, number, number]>();
  for (const key of new Set([...groups.keys(), ...scanned.map((it) => it.key)])) {
    const g = groups.get(key) ?? [];
    entities.set(key, [rank(aggregateSeverity(g).severity), rank(aggregateSeverity([...g, learned("medium")]).severity), rank(aggregateSeverity([...g, learned("high")]).severity), rank(aggregateSeverity(g.map((f) => vetoed.get(f) ?? f)).severity)]);
  }
  return { id: c.id, file: c.file, label: c.label === "malicious" ? 1 : 0, items, entities };
}

/**
 * The case's overall severity rank when item i gets R34 at level[i] (0 none, 1 medium, 2 high) or is
 * vetoed (-1: the model rates it benign, learned/score.ts vetoFindings): an entity all of whose items
 * are vetoed takes its vetoed severity (entities[3]).
 */
export function fusedRank(c: CaseData, level: readonly number[]): number {
  const byKey = new Map<string, number>();
  c.items.forEach((it, i) => byKey.set(it.key, Math.max(byKey.get(it.key) ?? -1, level[i] ?? 0)));
  let best = -1;
  for (const [key, sev] of c.entities) {
    const lvl = byKey.get(key) ?? 0;
    best = Math.max(best, sev[lvl === -1 ? 3 : lvl]!);
  }
  return best;
}
