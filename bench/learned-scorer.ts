// Cost of the learned scorer (R35) per item, as the product runs it (score.ts learnedViews
// with the shipped model): both views' features (normalisation, hashed n-grams, structural signals,
// rule hits; then each sentence alone) and their dot products, over every item of the tuning
// corpus; the rules' own scan of the same items for scale. Not part of `npm run bench` or the
// tests.   npx tsx bench/learned-scorer.ts
import { itemInputs, tuningCases } from "@/scripts/detector/dataset";
import { learnedViews } from "@/lib/detection/learned/score";
import { scanTools } from "@/lib/detection";

const cases = tuningCases();
const inputs = cases.flatMap((c) => itemInputs(c).items.map((it) => it.input));
const rounds = 20;
let sink = 0;
for (const input of inputs) sink += learnedViews(input).p; // warm-up
const t0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) for (const input of inputs) sink += learnedViews(input).p;
const scorerUs = Number(process.hrtime.bigint() - t0) / 1e3 / (rounds * inputs.length);

const t1 = process.hrtime.bigint();
for (let r = 0; r < 5; r++) for (const c of cases) scanTools(c.tools ?? [], { otherServers: c.otherServers, instructions: c.instructions, prompts: c.prompts, resources: c.resources, resourceTemplates: c.resourceTemplates });
const rulesUs = Number(process.hrtime.bigint() - t1) / 1e3 / (5 * inputs.length);
const chars = inputs.reduce((s, i) => s + i.strings.reduce((a, x) => a + x.text.length, 0), 0) / inputs.length;
console.log(`${inputs.length} items (mean ${chars.toFixed(0)} characters): scorer ${scorerUs.toFixed(1)} µs per item (both views: features + dot products), rules ${rulesUs.toFixed(1)} µs per item (scanTools)  [checksum ${sink.toFixed(3)}]`);
