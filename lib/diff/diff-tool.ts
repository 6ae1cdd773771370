import { compareAnnotations } from "./annotations";
import { fieldChanges } from "./field-changes";
import { FindingSink } from "./findings";
import { brief, isObject, joinPointer, jsonEqual, jsonKeys, own } from "./json";
import { highestLevel, type LevelOverrides } from "./rules";
import { compareSchemas } from "./schema-walk";
import type { ToolChanged, ToolLike, ToolRename } from "./types";

const OWN_RULES = new Set(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]);

/** Absent, null and {} all mean "no output schema" (detection-rules §2, implementation notes). */
const hasSchema = (s: unknown) => isObject(s) && jsonKeys(s).length > 0;

/** Every changed field of one tool, and each change classified (ERR/WARN/INFO with a rule id). */
export function diffTool(before: ToolLike, after: ToolLike, levels?: LevelOverrides, rename?: ToolRename): ToolChanged {
  const sink = new FindingSink(levels);
  if (rename) {
    sink.add("tool-renamed", "/name", `renamed from ${JSON.stringify(rename.from)} to ${JSON.stringify(rename.to)}: calls by the old name fail`);
  }
  if (!jsonEqual(before.title, after.title)) sink.add("tool-title-changed", "/title", "title changed");
  if (!jsonEqual(before.description, after.description)) sink.add("tool-description-changed", "/description", "description changed (review it: models read it as instructions)");

  if (!jsonEqual(before.inputSchema, after.inputSchema)) compareSchemas(before.inputSchema, after.inputSchema, "request", "/inputSchema", sink);

  const hadOut = hasSchema(before.outputSchema);
  const hasOut = hasSchema(after.outputSchema);
  if (!hadOut && hasOut) sink.add("tool-output-schema-added", "/outputSchema", "outputSchema added: results now promise structuredContent");
  else if (hadOut && !hasOut) sink.add("tool-output-schema-removed", "/outputSchema", "outputSchema removed: structured results are no longer promised");
  else if (hadOut && !jsonEqual(before.outputSchema, after.outputSchema)) {
    compareSchemas(before.outputSchema, after.outputSchema, "response", "/outputSchema", sink);
  }

  compareAnnotations(before.annotations, after.annotations, sink);

  const others = [...new Set([...jsonKeys(before), ...jsonKeys(after)])].filter((k) => !OWN_RULES.has(k)).sort();
  for (const key of others) {
    const b = own(before, key);
    const a = own(after, key);
    if (!jsonEqual(b, a)) sink.add("tool-field-changed", joinPointer("", key), `${key} ${brief(b, 40)} → ${brief(a, 40)}`);
  }

  const findings = sink.sorted();
  return {
    name: before.name,
    ...(rename ? { rename } : {}),
    highest: highestLevel(findings.map((f) => f.level)),
    fields: fieldChanges(before, after),
    findings,
  };
}
