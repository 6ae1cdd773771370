// `toolwatch diff` beyond tools: prompts, resources, resource templates and instructions, when
// both files carry them ({"tools": [...], "prompts": [...], "resources": [...],
// "resourceTemplates": [...], "instructions": "..."}, or "toolwatch snapshot --json" output).
import { diffSurface, summarizeSurface, visibleText, renderWords, type SurfaceDiffSummary, type SurfaceItemChange } from "@/lib/diff";
import { KIND_LABEL, surfaceItems, type SurfaceItemJson, type SurfaceListing } from "@/lib/surface/surface";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const KEYS = ["prompts", "resources", "resourceTemplates", "instructions"] as const;

/** The surface a parsed file carries (top level, or a snapshot's `surface`); null when it has none. */
export function extractSurface(json: unknown): SurfaceListing | null {
  if (!isObj(json)) return null;
  const holder = isObj(json.surface) ? json.surface : json;
  if (!KEYS.some((k) => k in holder)) return null;
  const list = (key: string): SurfaceItemJson[] | null => {
    const value = holder[key];
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) throw new Error(`"${key}" must be an array`);
    value.forEach((item, i) => {
      if (!isObj(item) || typeof item.name !== "string") throw new Error(`${key}[${i}] is not an object with a string "name"`);
    });
    return value as SurfaceItemJson[];
  };
  const instructions = holder.instructions;
  if (instructions !== undefined && instructions !== null && typeof instructions !== "string") throw new Error('"instructions" must be a string');
  return { prompts: list("prompts"), resources: list("resources"), resourceTemplates: list("resourceTemplates"), instructions: (instructions as string | null | undefined) ?? null };
}

export type SurfaceComparison = { changes: SurfaceItemChange[]; summary: SurfaceDiffSummary };

export function compareSurfaces(before: SurfaceListing, after: SurfaceListing): SurfaceComparison {
  const changes = diffSurface(surfaceItems(before), surfaceItems(after));
  return { changes, summary: summarizeSurface(changes) };
}

/** Text lines under the tool diff: one per changed item, its findings indented, instructions with a word diff. */
export function renderSurfaceText(c: SurfaceComparison): string {
  if (c.changes.length === 0) return "Prompts, resources, templates, instructions: no changes.";
  const lines = [`Prompts, resources, templates, instructions: ${c.summary.added} added, ${c.summary.removed} removed, ${c.summary.changed} changed (highest ${c.summary.highest ?? "none"})`];
  for (const change of c.changes) {
    const what = change.kind === "instructions" ? "server instructions" : `${KIND_LABEL[change.kind]} ${JSON.stringify(visibleText(change.name))}`;
    lines.push(`  ${change.highest ?? "    "} ${what} ${change.change}`);
    for (const f of change.findings) lines.push(`       ${f.level} ${f.ruleId}: ${visibleText(f.message)}`);
    if (change.words) lines.push(`       ${renderWords(change.words)}`);
  }
  return lines.join("\n");
}
