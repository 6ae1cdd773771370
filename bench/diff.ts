import { pathToFileURL } from "node:url";
import { diffToolLists, type ToolLike } from "@/lib/diff";
import { stats, time } from "./timing";

// `npm run bench` (registered in bench/run.ts) or `node --import tsx bench/diff.ts`: prints
// numbers, asserts nothing. Pure CPU, no database.
const TOOLS = Number(process.env.BENCH_DIFF_TOOLS ?? 5_000);
const RUNS = Number(process.env.BENCH_DIFF_RUNS ?? 15);

const WORDS = "read write list search file path directory content workspace record query page result filter sort limit offset token user project".split(" ");
const sentence = (seed: number, n: number) => Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(" ");

/** A realistic tool: nested objects, arrays of objects, enums, bounds, a `$ref` to `$defs`, an output schema. */
function makeTool(i: number): ToolLike {
  return {
    name: `tool_${i}`,
    title: `Tool ${i}`,
    description: `${sentence(i, 40)}. Returns the ${sentence(i + 1, 12)}.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "Identifier of the record", pattern: "^[a-z0-9-]+$", maxLength: 64 },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        mode: { enum: ["fast", "thorough", "exhaustive"] },
        filter: {
          type: "object",
          properties: {
            field: { type: "string" },
            op: { enum: ["eq", "ne", "lt", "gt"] },
            value: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
            nested: { type: "object", properties: { deep: { type: "array", items: { type: "string", format: "uri" } } } },
          },
          required: ["field", "op"],
        },
        sort: { type: "array", items: { $ref: "#/$defs/SortKey" }, maxItems: 5 },
      },
      required: ["id"],
      additionalProperties: false,
      $defs: { SortKey: { type: "object", properties: { key: { type: "string" }, dir: { enum: ["asc", "desc"] } }, required: ["key"] } },
    },
    outputSchema: {
      type: "object",
      properties: { items: { type: "array", items: { type: "object", properties: { id: { type: "string" }, score: { type: "number" } } } }, next: { type: ["string", "null"] } },
      required: ["items"],
    },
    annotations: { readOnlyHint: i % 3 === 0, openWorldHint: false },
  };
}

type Obj = Record<string, unknown>;
/** The object at a path inside a generated tool (the generator guarantees it exists). */
const at = (root: unknown, ...path: string[]): Obj => path.reduce((o: unknown, k) => (o as Obj)[k], root) as Obj;

/** One of several kinds of change, so every part of the engine is exercised. */
function mutate(tool: ToolLike, k: number): ToolLike {
  const t = structuredClone(tool);
  const props = at(t, "inputSchema", "properties");
  switch (k % 6) {
    case 0: t.description = `${t.description} Also supports pagination.`; break;
    case 1: props.encoding = { type: "string" }; (at(t, "inputSchema").required as string[]).push("encoding"); break;
    case 2: (at(props, "mode").enum as string[]).pop(); break;
    case 3: (at(t, "inputSchema", "$defs", "SortKey", "properties", "dir").enum as string[]).push("random"); break;
    case 4: at(t, "outputSchema", "properties", "next").type = "string"; at(t, "annotations").readOnlyHint = !at(t, "annotations").readOnlyHint; break;
    case 5: at(props, "filter", "properties", "nested", "properties", "deep", "items").format = "uuid"; break;
  }
  return t;
}

export async function runDiffBench(): Promise<void> {
  console.log(`diff bench — node ${process.version}, ${TOOLS} tools per list, ${RUNS} runs`);
  const before = Array.from({ length: TOOLS }, (_, i) => makeTool(i));
  // 1% changed: every 100th tool mutated; the new list is a fresh copy (as parsed from the wire).
  const after = before.map((t, i) => (i % 100 === 0 ? mutate(t, i / 100) : structuredClone(t)));
  const first = diffToolLists(before, after);
  const samples = Array.from({ length: RUNS }, () => time(() => diffToolLists(before, after)));
  const s = first.summary;
  console.log(`diff two ${TOOLS}-tool lists, 1% changed:          ${stats(samples)}`);
  console.log(`  → ${s.changed} changed, ${s.unchanged} unchanged, highest ${s.highest} (ERR ${s.levels.ERR} · WARN ${s.levels.WARN} · INFO ${s.levels.INFO})`);

  // Same lists, keys of every tool in a different order: must be "no change", via the slow path.
  const reordered = before.map((t) => Object.fromEntries(Object.entries(structuredClone(t)).reverse()) as ToolLike);
  const keyOrder = Array.from({ length: Math.max(3, RUNS / 3) }, () => time(() => diffToolLists(before, reordered)));
  console.log(`diff two ${TOOLS}-tool lists, key order shuffled:     ${stats(keyOrder)}  (changed: ${diffToolLists(before, reordered).summary.changed})`);

  // Worst case for rename detection: 500 removed and 500 added, all alike (same arguments, descriptions
  // from one small vocabulary), so every pair passes the gates; scoring stops at maxRenamePairs.
  const gone = before.slice(0, 500);
  const fresh = Array.from({ length: 500 }, (_, i) => ({ ...makeTool(TOOLS + i), description: sentence(i * 3 + 1, 25) }));
  let last = diffToolLists(gone, fresh);
  const renames = Array.from({ length: 3 }, () => time(() => (last = diffToolLists(gone, fresh))));
  console.log(`rename search worst case, 500 removed × 500 added:  ${stats(renames)}  (${last.renameSearch}, ${last.summary.renamed} paired)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runDiffBench();
