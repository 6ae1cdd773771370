import { pathToFileURL } from "node:url";
import { fixtureTool } from "./fleet/fleet-tools";
import { percentile } from "./timing";

// `npm run bench` (registered in bench/run.ts) or `node --import tsx bench/context-tokens.ts`:
// what counting context tokens (o200k_base, lib/context-tokens) costs the worker per tool. Pure
// CPU, no database. Prints numbers, asserts nothing.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);

const WORDS = "read value list search file path directory content workspace record query page result filter sort limit offset token user project issue branch commit".split(" ");
const sentence = (seed: number, n: number) => Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(" ");

/** A large tool (as in bench/audit.ts): paragraphs of description, nested schema, output schema, annotations. */
function richTool(i: number) {
  return {
    name: `tool_${i}`,
    title: `Tool ${i}`,
    description: `${sentence(i, 30)}.\n\nUse this when you need the ${sentence(i + 1, 12)}. See https://docs.example.com/tools/${i} for details. Returns at most 100 results.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "Identifier of the record", pattern: "^[a-z0-9-]+$" },
        query: { type: "string", description: `Search terms, e.g. '${sentence(i, 3)}'` },
        mode: { type: "string", enum: ["fast", "thorough", "exhaustive"], default: "fast", description: "How hard to look" },
        filter: { type: "object", properties: { field: { type: "string" }, op: { enum: ["eq", "ne", "lt", "gt"] }, value: { anyOf: [{ type: "string" }, { type: "number" }] } } },
      },
      required: ["id"],
    },
    outputSchema: { type: "object", properties: { items: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } } } },
    annotations: { readOnlyHint: i % 3 === 0, openWorldHint: false },
  };
}

export async function runContextTokensBench(): Promise<void> {
  const loadStart = performance.now();
  const { countContextTokens } = await import("@/lib/context-tokens/count-tokens");
  const loadMs = performance.now() - loadStart;
  const firstStart = performance.now();
  countContextTokens("tool", fixtureTool(0, 0));
  console.log(`context-tokens bench — node ${process.version}, o200k_base (gpt-tokenizer), ${ROUNDS} rounds`);
  console.log(`  tokenizer load ${loadMs.toFixed(0)} ms, first count ${(performance.now() - firstStart).toFixed(1)} ms (once per process)`);
  // Every round uses tools not seen before (new service index / seed), so the tokenizer's merge
  // cache helps only as much as it would across a real fleet's distinct tools.
  const kinds: Array<[string, (round: number, t: number) => unknown, number]> = [
    ["fleet connector tool (bench/fleet, 50 per server)", (round, t) => fixtureTool(1_000 + round, t), 50],
    ["large tool (bench/audit shape)", (round, t) => richTool(round * 100 + t), 50],
  ];
  for (const [label, make, perRound] of kinds) {
    const perTool: number[] = [];
    let tokens = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const tools = Array.from({ length: perRound }, (_, t) => make(round, t));
      const start = performance.now();
      for (const tool of tools) tokens += countContextTokens("tool", tool);
      perTool.push(((performance.now() - start) * 1000) / perRound);
    }
    const avgTokens = tokens / (ROUNDS * perRound);
    console.log(`  ${label}: ≈${avgTokens.toFixed(0)} tokens/tool, p50 ${percentile(perTool, 0.5).toFixed(1)} µs/tool, p95 ${percentile(perTool, 0.95).toFixed(1)} µs/tool`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runContextTokensBench();
