// Every string of a tool that a model may read, each with its RFC 6901 pointer: name, title,
// description, annotation strings, and in inputSchema/outputSchema every description, title, enum
// value, default, example, const, property name and the strings of non-standard keywords (a
// poisoned "extra" field is as visible to the model as a description: CyberArk full-schema
// poisoning). Pure, bounded: deep or huge schemas are cut off, never recursed without limit.
import { isObject, joinPointer } from "@/lib/diff/json";
import type { ExtractedString, StringField, ToolLike } from "./types";

const MAX_DEPTH = 64;
const MAX_STRINGS = 10_000;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** Keywords whose values are structure, not text for the model (handled or deliberately skipped). */
const STRUCTURAL = new Set([
  "type", "enum", "const", "default", "examples", "example", "title", "description", "properties", "patternProperties",
  "additionalProperties", "required", "items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains",
  "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "dependentRequired",
  "dependentSchemas", "dependencies", "propertyNames", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref",
  "$defs", "definitions", "$schema", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "readOnly",
  "writeOnly", "deprecated", "contentEncoding", "contentMediaType", "contentSchema", "unevaluatedItems",
  "unevaluatedProperties", "nullable", "discriminator",
]);

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_ONE = ["items", "additionalProperties", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema"];
const SCHEMA_LIST = ["prefixItems", "allOf", "anyOf", "oneOf", "items"];

class Collector {
  readonly list: ExtractedString[] = [];
  /** Where the walk stopped short: nesting deeper than MAX_DEPTH, or more than MAX_STRINGS strings. */
  truncated: { pointer: string; reason: "depth" | "count" } | null = null;
  add(pointer: string, field: StringField, text: string): void {
    if (!text) return;
    if (this.list.length < MAX_STRINGS) this.list.push({ pointer, field, text });
    else this.truncated ??= { pointer, reason: "count" };
  }
  deep(pointer: string): void {
    this.truncated ??= { pointer, reason: "depth" };
  }
  /** Every string inside a JSON value (default, examples, const, enum entries, vendor keywords). */
  leaves(value: unknown, pointer: string, field: StringField, depth = 0): void {
    if (depth > MAX_DEPTH) return this.deep(pointer);
    if (this.list.length >= MAX_STRINGS) return;
    if (typeof value === "string") this.add(pointer, field, value);
    else if (Array.isArray(value)) value.forEach((v, i) => this.leaves(v, `${pointer}/${i}`, field, depth + 1));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) this.leaves(v, joinPointer(pointer, k), field, depth + 1);
  }
}

/** The model-visible strings of one tool, in a stable order (document order within each part). */
export function extractToolStrings(tool: ToolLike): ExtractedString[] {
  return extractWithLimits(tool).strings;
}

export type Extraction = { strings: ExtractedString[]; truncated: Collector["truncated"] };

/** The strings, and where (if anywhere) the bounded walk stopped before the end of the tool. */
export function extractWithLimits(tool: ToolLike): Extraction {
  const c = new Collector();
  c.add("/name", "name", String(tool.name));
  if (typeof tool.title === "string") c.add("/title", "title", tool.title);
  if (typeof tool.description === "string") c.add("/description", "description", tool.description);
  if (isObject(tool.annotations)) {
    for (const [k, v] of Object.entries(tool.annotations)) if (typeof v === "string") c.add(joinPointer("/annotations", k), "annotation", v);
  }
  walkSchema(tool.inputSchema, "/inputSchema", c, 0);
  walkSchema(tool.outputSchema, "/outputSchema", c, 0);
  // _meta is free-form vendor data that clients may hand to the model (hints, UI text): read its
  // strings as annotations are read.
  if (isObject(tool._meta)) c.leaves(tool._meta, "/_meta", "annotation");
  return { strings: c.list, truncated: c.truncated };
}

function walkSchema(node: unknown, ptr: string, c: Collector, depth: number): void {
  if (!isObject(node) || c.list.length >= MAX_STRINGS) return;
  if (depth > MAX_DEPTH) return c.deep(ptr);
  const props = isObject(node.properties) ? node.properties : undefined;
  for (const [key, value] of Object.entries(node)) {
    const at = joinPointer(ptr, key);
    switch (key) {
      case "description":
        if (typeof value === "string") c.add(at, "schema-description", value);
        continue;
      case "title":
        if (typeof value === "string") c.add(at, "schema-title", value);
        else c.leaves(value, at, "schema-keyword");
        continue;
      case "enum":
        c.leaves(value, at, "enum");
        continue;
      case "const":
      case "default":
        c.leaves(value, at, key);
        continue;
      case "examples":
      case "example":
        c.leaves(value, at, "examples");
        continue;
      case "required":
        if (Array.isArray(value)) value.forEach((v, i) => typeof v === "string" && !(props && Object.hasOwn(props, v)) && c.add(`${at}/${i}`, "required", v));
        continue;
      case "type":
        if (typeof value === "string" && !JSON_TYPES.has(value)) c.add(at, "schema-keyword", value);
        else if (Array.isArray(value)) value.forEach((v, i) => typeof v === "string" && !JSON_TYPES.has(v) && c.add(`${at}/${i}`, "schema-keyword", v));
        continue;
      case "$comment":
        if (typeof value === "string") c.add(at, "schema-keyword", value);
        continue;
    }
    if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        const subPtr = joinPointer(at, name);
        if (key === "properties") c.add(subPtr, "property-name", name);
        walkSchema(sub, subPtr, c, depth + 1);
      }
    } else if (SCHEMA_LIST.includes(key) && Array.isArray(value)) {
      value.forEach((sub, i) => walkSchema(sub, `${at}/${i}`, c, depth + 1));
    } else if (SCHEMA_ONE.includes(key)) {
      walkSchema(value, at, c, depth + 1);
    } else if (!STRUCTURAL.has(key)) {
      // A keyword JSON Schema does not define: its name and its strings reach the model as they are.
      if (/[^A-Za-z0-9_$-]/.test(key) || key.length > 40) c.add(at, "schema-keyword", key);
      c.leaves(value, at, "schema-keyword", depth + 1);
    }
  }
}

/** Input properties declared at the top level of a tool's inputSchema (name → schema). */
export function inputProperties(tool: ToolLike): Array<[string, Record<string, unknown>]> {
  const schema = tool.inputSchema;
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties).map(([k, v]) => [k, isObject(v) ? v : {}]);
}
