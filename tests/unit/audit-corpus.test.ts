import { describe, expect, it } from "vitest";
import { evaluate, loadCorpus } from "../fixtures/audit-corpus/evaluate";

// The evaluation corpus (tests/fixtures/audit-corpus): published attack examples reconstructed
// from their sources, tools of the official reference servers as served, hard negatives (tools
// that describe attacks, take key paths, shout IMPORTANT…), history pairs, and a held-out batch
// written after the rules were frozen. "Flagged" is defined in evaluate.ts: aggregated severity
// high or critical (for history cases: needs-review and history findings at high or above).

const cases = loadCorpus();
const result = evaluate(cases);

describe("audit corpus", () => {
  it("holds at least 100 labelled cases with unique ids, each citing its source", () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(["malicious", "benign"]).toContain(c.label);
      expect(c.source.length).toBeGreaterThan(10);
    }
    expect(result.positives).toBeGreaterThanOrEqual(40);
    expect(result.negatives).toBeGreaterThanOrEqual(40);
  });

  it("recall ≥ 0.90 and false-positive rate ≤ 0.05", () => {
    const h = result.heldOut;
    console.log(
      `audit corpus: ${result.total} cases, recall ${result.recall.toFixed(2)} (${result.tp}/${result.positives}), FPR ${result.fpr.toFixed(2)} (${result.fp}/${result.negatives})` +
        ` — hard negatives flagged ${result.hardFp}/${result.hardNegatives}; held-out: ${h.tp}/${h.positives} flagged, ${h.fp}/${h.negatives} false positives`,
    );
    if (result.missed.length) console.log(`  missed: ${result.missed.join(", ")}`);
    if (result.falsePositives.length) console.log(`  false positives: ${result.falsePositives.join(", ")}`);
    expect(result.recall).toBeGreaterThanOrEqual(0.9);
    expect(result.fpr).toBeLessThanOrEqual(0.05);
  });

  it("every published attack is critical or high, and security tools that describe attacks stay below high", () => {
    const published = result.rows.filter((r) => r.c.file === "published-attacks.json");
    expect(published.filter((r) => !r.v.flagged).map((r) => r.c.id)).toEqual([]);
    const hard = result.rows.filter((r) => r.c.file === "hard-negatives.json");
    expect(hard.filter((r) => r.v.flagged).map((r) => r.c.id)).toEqual([]);
  });
});
