// zod 4 → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with named schemas collected
// into components.schemas: a schema carrying `.meta({ id })` becomes a $ref to
// #/components/schemas/<id> wherever it is used.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;
export type Io = "input" | "output";

const DEFS = "#/$defs/";
const COMPONENTS = "#/components/schemas/";

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(DEFS)) out[key] = COMPONENTS + value.slice(DEFS.length);
    else out[key] = rewriteRefs(value);
  }
  return out;
}

export class SchemaCollector {
  /** Named schemas, by id; input and output shapes of one id differ only by defaults, so input ids get an "Input" suffix. */
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: Io): JsonSchema {
    const raw = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      // Transforms (comma-separated query lists) are described by their input; refinements are runtime checks.
      override: () => undefined,
    }) as JsonSchema;
    const { $schema: _dialect, $defs, id, ...root } = raw as JsonSchema & { $defs?: Record<string, JsonSchema>; id?: string };
    void _dialect;
    for (const [name, def] of Object.entries($defs ?? {})) this.components[name] = rewriteRefs(def) as JsonSchema;
    const body = rewriteRefs(root) as JsonSchema;
    if (typeof id === "string") {
      // The root itself is named: keep it once under components and refer to it.
      this.components[id] = body;
      return { $ref: COMPONENTS + id };
    }
    return body;
  }
}
