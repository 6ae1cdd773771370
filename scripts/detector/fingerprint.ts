// What the learned scorer (R35) was trained from: the tuning corpus, the rule and feature code it
// reads, and the training code. The model file records this hash; tests/unit/learned-scorer.test.ts
// recomputes it, so a change to any of them without `npm run train-detector` fails the suite.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = path.join(import.meta.dirname, "../..");

function files(dir: string, keep: (f: string) => boolean): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name), keep) : keep(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

export function trainingInputs(): string[] {
  return [
    ...files("tests/fixtures/audit-corpus", (f) => f.endsWith(".json")).filter((f) => !f.includes(`${path.sep}held-out${path.sep}`) && !f.includes(`${path.sep}cli${path.sep}`)),
    "tests/fixtures/audit-corpus/evaluate.ts",
    ...files("lib/detection", (f) => f.endsWith(".ts")),
    ...files("scripts/detector", (f) => f.endsWith(".ts")),
    "scripts/train-detector.ts",
  ];
}

export function trainingFingerprint(): string {
  const h = createHash("sha256");
  for (const f of trainingInputs()) {
    h.update(f.split(path.sep).join("/"));
    h.update("\0");
    h.update(fs.readFileSync(path.join(root, f)));
    h.update("\0");
  }
  return h.digest("hex");
}
