import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELD_OUT_DIR, evaluate, loadCorpus, summaryLine } from "@/tests/fixtures/audit-corpus/evaluate";

// The evaluation corpus (tests/fixtures/audit-corpus), split by source:
// - TUNING (*.json at the top): published attacks reconstructed from their sources, official
//   reference servers as served, hard negatives, history pairs, an earlier post-freeze batch, and
//   the issue-15 families (multilingual, encoded, confusable, hidden markup, schema fields,
//   credential harvesting, impersonation, prompts/resources, twins) with their hard negatives;
// - HELD-OUT (held-out/*.json): written before the rules ran on it and never tuned on
//   (held-out/README.md). Its numbers are asserted on their own, a little below what they are, so a
//   regression shows; they are not raised by fixing individual held-out cases.
// "Flagged" is defined in evaluate.ts: aggregated severity high or critical.

const cases = loadCorpus();
const result = evaluate(cases);

describe("audit corpus", () => {
  it("holds at least 300 labelled cases with unique ids, each citing its source, split into tuning and held-out", () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(["malicious", "benign"]).toContain(c.label);
      expect(c.source.length).toBeGreaterThan(10);
    }
    expect(result.heldOut.positives).toBeGreaterThanOrEqual(60);
    expect(result.heldOut.negatives).toBeGreaterThanOrEqual(40);
    expect(fs.readFileSync(path.join(HELD_OUT_DIR, "README.md"), "utf8")).toMatch(/never change a rule to fix an individual case/i);
  });

  it("has every issue-15 family in both splits, each with malicious cases, and twin pairs with both sides labelled", () => {
    const families = ["multilingual", "encoded", "confusable", "hidden-markup", "schema-fields", "credential-harvest", "impersonation", "prompts-resources", "twin"];
    for (const split of [result.tuning, result.heldOut]) {
      for (const f of families) expect(split.families[f]?.malicious ?? 0, f).toBeGreaterThan(0);
      expect(split.families["hard-negative"]?.benign ?? 0).toBeGreaterThanOrEqual(20);
    }
    // Grouped once (not a scan of every case per twin: that took 6 s beside a training run, over the 5 s limit).
    const labelsByTwin = new Map<string, string[]>();
    for (const c of cases) if (c.twin) labelsByTwin.set(c.twin, [...(labelsByTwin.get(c.twin) ?? []), c.label]);
    for (const [twin, labels] of labelsByTwin) expect(labels.sort(), twin).toEqual(["benign", "malicious"]);
  });

  // Thresholds sit just under the numbers reported in docs/detection.md, so a regression shows.
  // They are NOT the targets (held-out recall ≥ 0.95, FPR ≤ 0.02, every twin pair), which
  // batch 2 shows the rules do not reach on text they were not tuned on.
  it("tuning set: recall ≥ 0.984, false-positive rate ≤ 0.011, at least 1555 of 1651 twin pairs separated", () => {
    const t = result.tuning;
    console.log(summaryLine("tuning  ", t));
    if (t.missed.length) console.log(`  missed: ${t.missed.join(", ")}`);
    if (t.falsePositives.length) console.log(`  false positives: ${t.falsePositives.join(", ")}`);
    // The tuning files of 2026-12-06 (b: 300 cases, c/d/e: 763) were written blind and tuned on
    // once each; their misses after that stay in the corpus: 0.898 / 0.015 / 144 of 159 overall with
    // the rules alone, 0.913 / 0.016 with the learned scorer (R35, trained on this split: in-sample).
    // Then four more blind files (06f–06i, 1,014 cases, 170 false-positive traps among them) joined
    // the split untuned: no rule was changed for them, only R35 retrained: 0.863 / 0.032 / 196 of 251.
    // Four more (06j–06m, 899 cases) the same way: 0.840 / 0.036 / 226 of 291. Then five more
    // (06n–06r, 1,284 cases; one small rule round on them) and the veto of R35: 0.816 / 0.012 / 266 of 351.
    // Five more untuned (06s–06w, 1,306 cases), R35 retrained on 6,710: 0.803 / 0.015 / 307 of 411.
    // Three more untuned (06x–06z, 746 cases), R35 on 7,422: 0.793 / 0.017 / 327 of 447. Four more
    // (06aa–06ad, 1,020 cases; 06ad's long honest descriptions were at 0.223 FPR first), R35 on 8,395:
    // 0.798 / 0.025 / 363 of 495. Seven more (06ae–06ak, 1,785 cases), R28's optional-parameter split,
    // R35 NB-weighted on 10,086 with thresholds weighed by the target: 0.792 / 0.016 / 433 of 579. Two
    // more (06al, 60 twin pairs; 06am, security tooling), R35 on 10,560: 0.789 / 0.015 / 481 of 651.
    // Thirty-three more (06an–06bt, 8,526 cases, most of them in other languages), R28's lower tier and
    // R29's list-level finding at low, R35 on 18,559: 0.748 / 0.018 / 852 of 1,239; the veto sparing only a
    // finding critical on its own: 0.748 / 0.012 / 853 of 1,239. R35 with words cut by ICU in unspaced
    // scripts, the multilingual lexicon's roles and a second view over each sentence: 0.753 / 0.012 / 869.
    // Six more (06bu–06bz, 1,511 cases written blind on 2026-12-06's night, most of them aimed at what the
    // model missed: subtle twins, changes, prompts and resources, credentials in 24 languages, schema
    // fields), first run 0.749 / 0.014 / 903 of 1,321; R35 retrained on 21,810 (the changes' tools
    // included) with its veto up to its thresholds (0.8): 0.745 / 0.012 / 904 of 1,321. R35's views
    // stacked by boosted trees over them and the named features (2026-12-07): 0.746 / 0.009 / 905.
    // Four more (07a–07d, 955 cases written blind on 2026-12-07: 90 subtle twin pairs, credentials and
    // schema fields, 24 languages, prompts, resources and other servers' tools), first run 0.739 /
    // 0.009 / 955 of 1,411; R35 retrained on 22,765 with 2^18 hashed dimensions: 0.744 / 0.008 / 962.
    // Four more (07e–07h, 863 cases written blind on 2026-12-07: 100 English and 70 multilingual twin
    // pairs, schema fields, encoded payloads, credentials, prompts, impersonation, confusables), first
    // run 0.740 / 0.008 / 1,093 of 1,651; R35 retrained on 23,628: 0.742 / 0.009 / 1,104. R35 alone no
    // longer held at medium (2026-12-07, evening; in-sample here, R35 was trained on this split):
    // 0.977 / 0.010 / 1,526 (10,412/10,652, 127/12,330). R35's n-grams reading every digit as 0 and
    // R25 critical on a read-only annotation over stored data destroyed, retrained (thresholds 0.75):
    // 0.985 / 0.012 / 1,547 (10,491, 143). Consent claimed in passing (R8), secrets from the chat (R14)
    // and credential asks read in more scripts (R16), retrained: 0.985 / 0.010 / 1,557 (10,488, 129).
    expect(t.recall).toBeGreaterThanOrEqual(0.984);
    expect(t.fpr).toBeLessThanOrEqual(0.011);
    expect(t.twins.pairs).toBe(1651);
    expect(t.twins.separated).toBeGreaterThanOrEqual(1555);
  });

  // 0.949 / 0.000 / 11 of 12 until 2026-12-07; R35 on 21,810 cases with the veto at 0.8 discounted
  // three more of its attacks (71 of 78); its views stacked by boosted trees catch them again (74 of 78);
  // R35 alone no longer held at medium (2026-12-07, evening): 76 of 78; digits read as 0 and R25's
  // critical tier (2026-12-07, night): 76 of 78.
  it("held-out batch 1 (never tuned on): recall ≥ 0.969, false-positive rate ≤ 0.02, at least 11 of 12 twin pairs separated", () => {
    const h = result.heldOutBatches["batch 1"];
    console.log(summaryLine("held-out batch 1", h));
    expect(h.recall).toBeGreaterThanOrEqual(0.969);
    expect(h.fpr).toBeLessThanOrEqual(0.02);
    expect(h.twins.pairs).toBe(12);
    expect(h.twins.separated).toBeGreaterThanOrEqual(11);
  });

  // Batches 2–5 were written blind by other authors on 2026-12-02 (held-out/README.md). First runs:
  // batch 2 recall 0.459 / FPR 0.100 / 4 of 12 twin pairs, batch 3 0.701 / 0.094 / 10 of 14, batch 4
  // 0.678 / 0.133 / 11 of 15, batch 5 (after two of the day's three tuning rounds) 0.733 / 0.076 / 9
  // of 15. Batch 6 (after all three rounds of 2026-12-02, new carriers): 0.622 / 0.092 / 8 of 12.
  // Batch 7 (written blind 2026-12-06, before that day's first round): 0.648 / 0.065 / 5 of 12. Batch 8
  // (written blind 2026-12-06, before that day's second round): 0.637 / 0.100 / 6 of 12. Batch 9
  // (before the third round): 0.633 / 0.088 / 9 of 12. Now, after the three rounds of 2026-12-06
  // and with the learned scorer R35 (trained on the tuning split only; alone at most medium until 2026-12-07, evening),
  // change cases judged as the alert pipeline does (docs/detection.md):
  const laterBatches = [
    { batch: "batch 2", positives: 74, negatives: 60, recall: 0.967, fpr: 0.039, pairs: 12, separated: 12 },
    { batch: "batch 3", positives: 87, negatives: 85, recall: 0.949, fpr: 0.017, pairs: 14, separated: 13 },
    { batch: "batch 4", positives: 90, negatives: 90, recall: 0.972, fpr: 0.039, pairs: 15, separated: 13 },
    { batch: "batch 5", positives: 90, negatives: 92, recall: 0.961, fpr: 0.027, pairs: 15, separated: 15 },
    { batch: "batch 6", positives: 82, negatives: 87, recall: 0.897, fpr: 0.051, pairs: 12, separated: 10 },
    { batch: "batch 7", positives: 88, negatives: 92, recall: 0.960, fpr: 0.060, pairs: 12, separated: 10 },
    { batch: "batch 8", positives: 91, negatives: 90, recall: 0.929, fpr: 0.050, pairs: 12, separated: 10 },
    { batch: "batch 9", positives: 90, negatives: 91, recall: 0.872, fpr: 0.049, pairs: 12, separated: 10 },
    // Batch 10: written blind after the third round, first run on the rules and R35 of that round.
    // Batch 11: first run 0.789 / 0.110 / 5 of 12 (R35 on 4,253 cases, before the veto). Batch 12:
    // first run 0.800 / 0.044 / 12 of 12 (R35 on 5,478 cases with the veto). Batch 13: first run 0.789 /
    // 0.066 / 10 of 12 (R35 on 6,710). Batch 14: 0.822 / 0.077 / 7 of 12 (R35 on 7,422). Batch 15: 0.778 /
    // 0.033 / 8 of 12 (R35 on 8,395); batch 16: 0.756 / 0.044 / 8 of 12 (same); batch 17: 0.800 / 0.022 /
    // 10 of 12 (R35 on 10,086, thresholds weighed by the target); batch 18: 0.878 / 0.011 / 11 of 12 (R35
    // on 10,560); batch 19: 0.789 / 0.022 / 9 of 12 (same); batches 20 and 21: 0.778 / 0.022 / 9 of 12 and
    // 0.878 / 0.011 / 11 of 12 (R35 on 15,378, R28/R29 low at medium); batches 22 and 23: 0.822 / 0.055 /
    // 9 of 12 and 0.856 / 0.000 / 9 of 12 (R35 on 16,843); batch 24: 0.878 / 0.011 / 11 of 12 (R35 on
    // 18,559); batches 25 and 26: 0.800 / 0.000 / 6 of 12 and 0.811 / 0.011 / 8 of 12 (same system, run
    // before the two-view R35 of the same day). The rows are the final system's (R35 with the sentence
    // view, 2026-12-06 late): batch 1 lost one catch and one twin pair to it (0.962 → 0.949, 12 → 11).
    // Since 2026-12-07 the rows are R35's on 21,810 tuning cases (06bu–06bz and the tools of every
    // change between listings added; thresholds and veto 0.8): at the high gate, all batches, 2,130 →
    // 2,116 of 2,660 caught and 42 → 34 of 2,649 false positives. Since 2026-12-07 (later) they are R35's
    // with its views stacked by boosted trees: at the high gate, 32 batches, 2,265 → 2,267 of 2,840
    // caught and 36 → 31 of 2,831 false positives. Since 2026-12-07 (afternoon) they are R35's on 22,765
    // tuning cases (07a–07d added) with 2^18 hashed dimensions: 2,267 → 2,281 caught, 31 → 28 false
    // positives; batches 8 and 20 lost one catch each at the high gate, batch 14 gained a false positive.
    // Since 2026-12-07 (13:30) they are R35's on 23,628 tuning cases (07e–07h added; veto 0.75): 2,281 →
    // 2,286 caught, 28 → 31 false positives. At the high gate batches 2, 10 and 23 lost a catch and 7, 18,
    // 20, 29 (one each), 25 and 31 (two each) gained; batches 5 and 6 gained a false positive, 7 two, 14
    // lost one; batch 7 lost a twin pair and 31 gained one. Since 2026-12-07 (evening) R35 alone counts at
    // its own level, no longer held at medium when no rule fired (docs/rules/R35.md, "R35 alone"): same
    // model and thresholds, at the high gate 2,286 → 2,704 of 2,840 caught, 31 → 42 of 2,831 false
    // positives, 300 → 358 of 392 twin pairs; the high gate now flags what --fail-on medium flags but one
    // catch and one false positive (a medium from the rules alone).
    { batch: "batch 10", positives: 90, negatives: 91, recall: 0.872, fpr: 0.049, pairs: 12, separated: 12 },
    { batch: "batch 11", positives: 90, negatives: 91, recall: 0.928, fpr: 0.016, pairs: 12, separated: 10 },
    { batch: "batch 12", positives: 90, negatives: 91, recall: 0.950, fpr: 0.005, pairs: 12, separated: 12 },
    { batch: "batch 13", positives: 90, negatives: 91, recall: 0.928, fpr: 0.016, pairs: 12, separated: 12 },
    { batch: "batch 14", positives: 90, negatives: 91, recall: 0.950, fpr: 0.016, pairs: 12, separated: 12 },
    { batch: "batch 15", positives: 90, negatives: 91, recall: 0.961, fpr: 0.027, pairs: 12, separated: 11 },
    { batch: "batch 16", positives: 90, negatives: 91, recall: 0.939, fpr: 0.027, pairs: 12, separated: 10 },
    { batch: "batch 17", positives: 90, negatives: 91, recall: 0.961, fpr: 0.005, pairs: 12, separated: 11 },
    { batch: "batch 18", positives: 90, negatives: 91, recall: 0.961, fpr: 0.016, pairs: 12, separated: 11 },
    { batch: "batch 19", positives: 90, negatives: 91, recall: 0.983, fpr: 0.038, pairs: 12, separated: 11 },
    { batch: "batch 20", positives: 90, negatives: 91, recall: 0.939, fpr: 0.005, pairs: 12, separated: 12 },
    { batch: "batch 21", positives: 90, negatives: 91, recall: 0.961, fpr: 0.016, pairs: 12, separated: 12 },
    { batch: "batch 22", positives: 90, negatives: 91, recall: 0.972, fpr: 0.027, pairs: 12, separated: 11 },
    { batch: "batch 23", positives: 90, negatives: 91, recall: 0.983, fpr: 0.005, pairs: 12, separated: 12 },
    { batch: "batch 24", positives: 90, negatives: 91, recall: 0.983, fpr: 0.016, pairs: 12, separated: 12 },
    { batch: "batch 25", positives: 90, negatives: 91, recall: 0.939, fpr: 0.016, pairs: 12, separated: 9 },
    { batch: "batch 26", positives: 90, negatives: 91, recall: 0.972, fpr: 0.016, pairs: 12, separated: 10 },
    // Batches 27 and 28, first runs (written blind, committed before anything ran on them): 0.778 /
    // 0.000 / 11 of 12 and 0.822 / 0.011 / 11 of 12.
    { batch: "batch 27", positives: 90, negatives: 91, recall: 0.961, fpr: 0.016, pairs: 12, separated: 11 },
    { batch: "batch 28", positives: 90, negatives: 91, recall: 0.983, fpr: 0.016, pairs: 12, separated: 11 },
    // Batches 29 and 30, first runs (written blind, committed before anything ran on them; R35 on
    // 18,559 cases): 0.844 / 0.000 / 10 of 12 and 0.867 / 0.022 / 10 of 12 (at --fail-on medium 0.956 /
    // 0.000 and 0.967 / 0.033).
    { batch: "batch 29", positives: 90, negatives: 91, recall: 0.950, fpr: 0.016, pairs: 12, separated: 11 },
    { batch: "batch 30", positives: 90, negatives: 91, recall: 0.950, fpr: 0.005, pairs: 12, separated: 12 },
    // Batches 31 and 32, first runs (written blind after R35 was retrained on 21,810 cases, committed
    // before anything ran on them): 0.789 / 0.011 / 9 of 12 and 0.867 / 0.011 / 10 of 12 (at --fail-on
    // medium 0.922 / 0.011 and 0.967 / 0.011).
    { batch: "batch 31", positives: 90, negatives: 91, recall: 0.961, fpr: 0.016, pairs: 12, separated: 12 },
    { batch: "batch 32", positives: 90, negatives: 91, recall: 0.983, fpr: 0.038, pairs: 12, separated: 11 },
  ] as const;
  it.each(laterBatches)(
    "held-out $batch (written blind, never tuned on): recall ≥ $recall, false-positive rate ≤ $fpr, at least $separated of $pairs twin pairs separated",
    ({ batch, positives, negatives, recall, fpr, pairs, separated }) => {
      const h = result.heldOutBatches[batch];
      console.log(summaryLine(`held-out ${batch}`, h));
      expect(h.positives).toBe(positives);
      expect(h.negatives).toBe(negatives);
      expect(h.recall).toBeGreaterThanOrEqual(recall);
      expect(h.fpr).toBeLessThanOrEqual(fpr);
      expect(h.twins.pairs).toBe(pairs);
      expect(h.twins.separated).toBeGreaterThanOrEqual(separated);
    },
  );

  // The gate of `toolwatch scan --fail-on medium` over every held-out batch: 0.796 / 0.151 before the
  // round of 2026-12-06, 0.795 / 0.108 after it; with batch 8, 0.779 / 0.113 before the second round
  // of that day and 0.788 / 0.111 after it; with batch 9, 0.771 / 0.114 before the third round and
  // 0.790 / 0.114 after it; with the learned scorer R35, 0.827 / 0.123. With batch 10, 0.809 / 0.122;
  // R35 retrained on 3,393 tuning cases (four more blind files), 0.837 / 0.119; on 4,253 (four more),
  // 0.851 / 0.119. With batch 11, 0.856 / 0.124; R35 on 5,478 cases with its veto, 0.881 / 0.096; with
  // batch 12, 0.885 / 0.095; R35 retrained on 6,710 cases (06s–06w), 0.904 / 0.097; with batch 13,
  // 0.904 / 0.096; R35 on 7,422 cases (06x–06z), 0.913 / 0.093; with batch 14, 0.913 / 0.095; R35 on 8,395
  // cases (06aa–06ad), 0.917 / 0.094; with batches 15–16, 0.917 / 0.091. R28's optional-parameter
  // split and R35 on 10,086 cases (06ae–06ak, NB-weighted fits), thresholds weighed by the target
  // (a point of FPR = 2.5 of recall), with batch 17: 0.897 / 0.057; the old choice (most catches within
  // the rules' FPR) on the same model: 0.928 / 0.095. R35 on 10,560 (06al, 06am), thresholds 0.7: 0.886 /
  // 0.053 on those 17 batches; with batch 18, 0.887 / 0.052; with batch 19, 0.891 / 0.053; with batches
  // 20–21, 0.892 / 0.052. R28's lower tier and R29's list-level finding low, and the medium gate counting
  // what the high gate flags: 0.898 / 0.030; R35 on 15,378 (06an–06bg): 0.910 / 0.028; on 16,843, with
  // batches 22–23, 0.910 / 0.028; on 18,559 (thresholds 0.7), with batch 24, 0.900 / 0.024; the veto
  // sparing only a finding critical on its own (not two rules at high), 0.900 / 0.019; with batches
  // 25–26, 0.900 / 0.019. R35 with ICU words, the lexicon's roles and the sentence view stacked
  // (thresholds 0.8 / 0.8, veto 0.7): 0.917 / 0.020; with batches 27–28, 0.919 / 0.019; with batches
  // 29–30, 0.921 / 0.019; R35 on 21,810 cases (06bu–06bz, the changes' tools), veto 0.8: 0.921 / 0.016
  // (2,450/2,660, 43/2,649); with batches 31–32, 0.923 / 0.016 (2,620/2,840, 45/2,831; the issue's
  // target is 0.95 / 0.02: the false-positive side met, recall not). R35's views stacked by boosted
  // trees over them and the named features: 0.935 / 0.015 (2,654/2,840, 42/2,831). A change whose
  // changed or added tool the alert pipeline rates medium for its new content counted (as
  // `toolwatch check --fail-on-scan medium` fails on it; evaluate.ts atMedium): 0.940 / 0.015
  // (2,669/2,840, 43/2,831). R35 retrained on 22,765 cases (07a–07d, written blind) with 2^18 hashed
  // dimensions instead of 2^16: 0.950 / 0.014 (2,699/2,840, 39/2,831), the 0.95 / 0.02. R35
  // retrained on 23,628 cases (07e–07h, written blind; veto 0.75): 0.952 / 0.015 (2,705/2,840, 43/2,831).
  // R35's n-grams reading every digit as 0 and R25 critical on a read-only annotation over stored data
  // destroyed, retrained (thresholds 0.75 / 0.75 / veto 0.75): 0.960 / 0.018 (2,726/2,840, 52/2,831).
  // The R8/R14/R16 round of 2026-12-08, retrained (chosen on out-of-fold tuning numbers, which rose):
  // 0.957 / 0.019 (2,718/2,840, 53/2,831), 8 catches and 1 false positive fewer/more, within what a
  // retraining moves by.
  it("held-out, all batches, at --fail-on medium: recall ≥ 0.956, false-positive rate ≤ 0.019", () => {
    const h = result.heldOut;
    const recall = h.atMedium.tp / h.positives;
    const fpr = h.atMedium.fp / h.negatives;
    console.log(`held-out at --fail-on medium: recall ${recall.toFixed(3)}, FPR ${fpr.toFixed(3)}`);
    expect(recall).toBeGreaterThanOrEqual(0.956);
    expect(fpr).toBeLessThanOrEqual(0.019);
  });

  // The high gate (`--fail-on high`, evaluate.ts judge: high or critical) over every held-out batch:
  // 0.805 / 0.011 (2,286/2,840, 31/2,831) while R35 alone was held at medium; since 2026-12-07
  // (evening), R35 counting at its own level with no rule beside it, 0.952 / 0.015 (2,704, 42); digits
  // read as 0 and R25's critical tier, retrained (2026-12-07, night): 0.960 / 0.018 (2,726, 52), 363 of
  // 392 twin pairs; the R8/R14/R16 round, retrained (2026-12-08): 0.957 / 0.019 (2,718, 53), 362.
  it("held-out, all batches, at the high gate: recall ≥ 0.956, false-positive rate ≤ 0.019, at least 361 of 392 twin pairs separated", () => {
    const h = result.heldOut;
    console.log(summaryLine("held-out at the high gate", h));
    expect(h.recall).toBeGreaterThanOrEqual(0.956);
    expect(h.fpr).toBeLessThanOrEqual(0.019);
    expect(h.twins.pairs).toBe(392);
    expect(h.twins.separated).toBeGreaterThanOrEqual(361);
  });

  // Two misses until 2026-12-07 (afternoon), both ATR-2026-00106 variants, caught since R35 was retrained
  // on 22,765 cases with 2^18 dimensions (rated 0.884 and 0.946, over its 0.8: R35 at high beside the
  // rules' findings, no longer vetoed). Before:
  // - "readonly-hint-destructive" (readOnlyHint: true on "Deletes all untracked files…") is R25 at medium by
  //   design (an annotation at odds with the text is evidence to weigh), and R35 rates it 0.703 (0.683 on
  //   18,559 cases), under its veto, so it is shown at low. Exempting annotation findings from the veto was
  //   measured on the tuning files and not taken: it would keep 4 such attacks and 6 honest tools at medium.
  //   Since 2026-12-07 (night) R25 is critical on it (a read-only annotation on a tool that destroys stored
  //   data; tests/unit/r25-stored-data.test.ts), which the veto never lowers, whatever R35 rates it.
  // - "schema-contradiction-write-mode" (a read-only query tool, "safe to run without confirmation", with a
  //   write_mode flag defaulting to true) is R8 and R25 at high, and R35 rates it 0.746: above the 0.7 veto
  //   of before 2026-12-07 (critical then), under the 0.8 veto since (docs/rules/R35.md "The veto").
  it("every published attack is high or critical, and the original hard negatives stay below high", () => {
    const published = result.rows.filter((r) => r.c.file === "published-attacks.json");
    expect(published.filter((r) => !r.v.flagged).map((r) => r.c.id)).toEqual([]);
    const hard = result.rows.filter((r) => r.c.file === "hard-negatives.json");
    expect(hard.filter((r) => r.v.flagged).map((r) => r.c.id)).toEqual([]);
  });
});
