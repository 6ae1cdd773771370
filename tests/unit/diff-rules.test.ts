import { describe, expect, it } from "vitest";
import { diffToolLists, RULE_IDS, type Finding, type RuleId, type ToolLike } from "@/lib/diff";
import type { Level } from "@/lib/diff/rules";

// The level each rule must report, written here (ERR definitely breaking, WARN possibly, INFO
// not): a change to lib/diff/rules.ts must change this table too, on purpose. Source: the
// compatibility table of the project's detection rules (shared/docs/detection-rules.md §3, after
// oasdiff's levels: e.g. tool removed ERR, new required property ERR, property removed WARN and
// ERR under additionalProperties:false, enum value added INFO, pattern changed WARN), checked
// row by row against this table when it was written; rules the document does not name follow
// oasdiff's level for the same change.
const LEVEL: Record<RuleId, Level> = {
  "tool-added": "INFO",
  "tool-removed": "ERR",
  "tool-renamed": "ERR",
  "tool-title-changed": "INFO",
  "tool-description-changed": "INFO",
  "tool-output-schema-added": "INFO",
  "tool-output-schema-removed": "WARN",
  "tool-annotation-escalated": "WARN",
  "tool-annotation-safety-claimed": "INFO",
  "tool-annotation-changed": "INFO",
  "tool-field-changed": "INFO",
  "new-required-request-property": "ERR",
  "request-property-became-required": "ERR",
  "request-property-removed": "WARN",
  "request-property-removed-closed": "ERR",
  "new-optional-request-property": "INFO",
  "request-property-became-optional": "INFO",
  "request-property-type-changed": "ERR",
  "request-property-type-generalized": "INFO",
  "request-property-became-not-nullable": "ERR",
  "request-property-became-nullable": "INFO",
  "request-property-enum-value-removed": "ERR",
  "request-property-became-enum": "ERR",
  "request-property-enum-value-added": "INFO",
  "request-property-enum-removed": "INFO",
  "request-property-const-added": "ERR",
  "request-property-const-changed": "ERR",
  "request-property-const-removed": "INFO",
  "request-property-max-decreased": "ERR",
  "request-property-min-increased": "ERR",
  "request-property-max-set": "WARN",
  "request-property-min-set": "WARN",
  "request-property-max-increased": "INFO",
  "request-property-min-decreased": "INFO",
  "request-property-pattern-added": "ERR",
  "request-property-pattern-changed": "WARN",
  "request-property-pattern-removed": "INFO",
  "request-property-one-of-removed": "ERR",
  "request-property-any-of-removed": "ERR",
  "request-property-one-of-added": "INFO",
  "request-property-any-of-added": "INFO",
  "request-property-all-of-added": "ERR",
  "request-property-all-of-removed": "WARN",
  "request-property-wrapped-in-one-of": "ERR",
  "request-property-wrapped-in-any-of": "ERR",
  "request-property-composition-dropped": "INFO",
  "request-additional-properties-closed": "ERR",
  "request-additional-properties-opened": "INFO",
  "request-property-default-changed": "WARN",
  "request-property-format-added": "WARN",
  "request-property-format-changed": "WARN",
  "request-property-format-removed": "INFO",
  "request-property-constraint-changed": "WARN",
  "response-required-property-removed": "ERR",
  "response-property-became-optional": "ERR",
  "response-optional-property-removed": "WARN",
  "response-required-property-added": "INFO",
  "response-optional-property-added": "INFO",
  "response-property-became-required": "INFO",
  "response-property-type-changed": "ERR",
  "response-property-type-generalized": "ERR",
  "response-property-type-specialized": "INFO",
  "response-property-became-nullable": "ERR",
  "response-property-became-not-nullable": "INFO",
  "response-property-enum-value-added": "WARN",
  "response-property-enum-value-removed": "INFO",
  "response-property-enum-removed": "WARN",
  "response-property-became-enum": "INFO",
  "response-property-const-removed": "ERR",
  "response-property-const-changed": "ERR",
  "response-property-const-added": "INFO",
  "response-property-max-increased": "ERR",
  "response-property-min-decreased": "ERR",
  "response-property-max-decreased": "INFO",
  "response-property-min-increased": "INFO",
  "response-property-one-of-added": "ERR",
  "response-property-wrapped-in-one-of": "ERR",
  "response-property-one-of-removed": "INFO",
  "response-property-one-of-dropped": "WARN",
  "response-property-any-of-changed": "INFO",
  "response-property-all-of-changed": "INFO",
  "response-property-pattern-changed": "INFO",
  "response-property-default-changed": "INFO",
  "response-additional-properties-changed": "INFO",
  "response-property-format-added": "INFO",
  "response-property-format-changed": "WARN",
  "response-property-format-removed": "WARN",
  "response-property-constraint-changed": "WARN",
  "schema-annotation-changed": "INFO",
  "schema-keyword-changed": "INFO",
  "schema-ref-changed": "WARN",
  "schema-too-deep": "WARN",
};

// One case per rule: `before → after` must fire `rule` (at `pointer`, when given). The reverse
// change (`after → before`) must not fire it, unless the rule is symmetric ("same"); when
// `reverse` names a rule, the reverse change fires that one instead.

type Json = Record<string, unknown>;
type Case = { rule: RuleId; before: ToolLike[]; after: ToolLike[]; pointer?: string; reverse: RuleId | "same" | null };

const tool = (extra: Json = {}): ToolLike => ({ name: "t", description: "A tool.", inputSchema: { type: "object" }, ...extra });
const I = (inputSchema: Json) => [tool({ inputSchema })];
const O = (outputSchema: Json) => [tool({ outputSchema })];
const A = (annotations: Json) => [tool({ annotations })];
const obj = (properties: Json, required?: string[], extra: Json = {}) => ({ type: "object", properties, ...(required ? { required } : {}), ...extra });
const x = (schema: Json) => obj({ x: schema });
const S = { type: "string" };
const N = { type: "integer" };
const nest = (depth: number, leaf: Json): Json => (depth === 0 ? leaf : obj({ n: nest(depth - 1, leaf) }));
const X = "/inputSchema/properties/x";
const OX = "/outputSchema/properties/x";
const branches = [{ required: ["a"] }, { required: ["b"] }];

const cases: Case[] = [
  // Tool level
  { rule: "tool-added", before: [], after: [tool()], pointer: "", reverse: "tool-removed" },
  { rule: "tool-removed", before: [tool()], after: [], pointer: "", reverse: "tool-added" },
  {
    rule: "tool-renamed",
    before: [tool({ name: "get_weather", description: "Current weather for a city, in metric units.", inputSchema: x(S) })],
    after: [tool({ name: "weather_get", description: "Current weather for a city, in metric units.", inputSchema: x(S) })],
    pointer: "/name",
    reverse: "same",
  },
  { rule: "tool-title-changed", before: [tool({ title: "Read" })], after: [tool({ title: "Read a file" })], pointer: "/title", reverse: "same" },
  { rule: "tool-description-changed", before: [tool()], after: [tool({ description: "A better tool." })], pointer: "/description", reverse: "same" },
  { rule: "tool-output-schema-added", before: [tool()], after: O(obj({ a: S })), pointer: "/outputSchema", reverse: "tool-output-schema-removed" },
  { rule: "tool-output-schema-removed", before: O(obj({ a: S })), after: [tool({ outputSchema: {} })], pointer: "/outputSchema", reverse: "tool-output-schema-added" },
  { rule: "tool-annotation-escalated", before: A({ readOnlyHint: true }), after: A({ readOnlyHint: false }), pointer: "/annotations/readOnlyHint", reverse: "tool-annotation-safety-claimed" },
  { rule: "tool-annotation-safety-claimed", before: A({ destructiveHint: true }), after: A({ destructiveHint: false }), pointer: "/annotations/destructiveHint", reverse: "tool-annotation-escalated" },
  { rule: "tool-annotation-changed", before: A({ idempotentHint: false }), after: A({ idempotentHint: true }), pointer: "/annotations/idempotentHint", reverse: "same" },
  { rule: "tool-field-changed", before: [tool({ _meta: { v: 1 } })], after: [tool({ _meta: { v: 2 } })], pointer: "/_meta", reverse: "same" },

  // inputSchema (request side)
  { rule: "new-required-request-property", before: I(obj({ a: S })), after: I(obj({ a: S, b: S }, ["b"])), pointer: "/inputSchema/properties/b", reverse: "request-property-removed" },
  { rule: "request-property-became-required", before: I(obj({ a: S })), after: I(obj({ a: S }, ["a"])), pointer: "/inputSchema/properties/a", reverse: "request-property-became-optional" },
  { rule: "request-property-removed", before: I(obj({ a: S, b: S })), after: I(obj({ a: S })), pointer: "/inputSchema/properties/b", reverse: "new-optional-request-property" },
  {
    rule: "request-property-removed-closed",
    before: I(obj({ a: S, b: S }, [], { additionalProperties: false })),
    after: I(obj({ a: S }, [], { additionalProperties: false })),
    pointer: "/inputSchema/properties/b",
    reverse: "new-optional-request-property",
  },
  { rule: "new-optional-request-property", before: I(obj({ a: S })), after: I(obj({ a: S, b: S })), pointer: "/inputSchema/properties/b", reverse: "request-property-removed" },
  { rule: "request-property-became-optional", before: I(obj({ a: S }, ["a"])), after: I(obj({ a: S })), pointer: "/inputSchema/properties/a", reverse: "request-property-became-required" },
  { rule: "request-property-type-changed", before: I(x(S)), after: I(x(N)), pointer: `${X}/type`, reverse: "same" },
  { rule: "request-property-type-generalized", before: I(x(N)), after: I(x({ type: "number" })), pointer: `${X}/type`, reverse: "request-property-type-changed" },
  { rule: "request-property-became-not-nullable", before: I(x({ type: ["string", "null"] })), after: I(x(S)), pointer: `${X}/type`, reverse: "request-property-became-nullable" },
  { rule: "request-property-became-nullable", before: I(x(S)), after: I(x({ type: "string", nullable: true })), pointer: `${X}/type`, reverse: "request-property-became-not-nullable" },
  { rule: "request-property-enum-value-removed", before: I(x({ enum: ["a", "b"] })), after: I(x({ enum: ["a"] })), pointer: `${X}/enum`, reverse: "request-property-enum-value-added" },
  { rule: "request-property-became-enum", before: I(x(S)), after: I(x({ ...S, enum: ["a"] })), pointer: `${X}/enum`, reverse: "request-property-enum-removed" },
  { rule: "request-property-enum-value-added", before: I(x({ enum: ["a"] })), after: I(x({ enum: ["a", "b"] })), pointer: `${X}/enum`, reverse: "request-property-enum-value-removed" },
  { rule: "request-property-enum-removed", before: I(x({ ...S, enum: ["a"] })), after: I(x(S)), pointer: `${X}/enum`, reverse: "request-property-became-enum" },
  { rule: "request-property-const-added", before: I(x(S)), after: I(x({ ...S, const: "a" })), pointer: `${X}/const`, reverse: "request-property-const-removed" },
  { rule: "request-property-const-changed", before: I(x({ const: "a" })), after: I(x({ const: "b" })), pointer: `${X}/const`, reverse: "same" },
  { rule: "request-property-const-removed", before: I(x({ ...S, const: "a" })), after: I(x(S)), pointer: `${X}/const`, reverse: "request-property-const-added" },
  { rule: "request-property-max-decreased", before: I(x({ ...S, maxLength: 10 })), after: I(x({ ...S, maxLength: 5 })), pointer: `${X}/maxLength`, reverse: "request-property-max-increased" },
  { rule: "request-property-min-increased", before: I(x({ ...N, minimum: 1 })), after: I(x({ ...N, minimum: 5 })), pointer: `${X}/minimum`, reverse: "request-property-min-decreased" },
  { rule: "request-property-max-set", before: I(x({ type: "array" })), after: I(x({ type: "array", maxItems: 3 })), pointer: `${X}/maxItems`, reverse: "request-property-max-increased" },
  { rule: "request-property-min-set", before: I(x(S)), after: I(x({ ...S, minLength: 1 })), pointer: `${X}/minLength`, reverse: "request-property-min-decreased" },
  { rule: "request-property-max-increased", before: I(x({ ...N, exclusiveMaximum: 10 })), after: I(x({ ...N, exclusiveMaximum: 20 })), pointer: `${X}/exclusiveMaximum`, reverse: "request-property-max-decreased" },
  { rule: "request-property-min-decreased", before: I(x({ type: "array", minItems: 2 })), after: I(x({ type: "array" })), pointer: `${X}/minItems`, reverse: "request-property-min-set" },
  { rule: "request-property-pattern-added", before: I(x(S)), after: I(x({ ...S, pattern: "^a" })), pointer: `${X}/pattern`, reverse: "request-property-pattern-removed" },
  { rule: "request-property-pattern-changed", before: I(x({ ...S, pattern: "^a" })), after: I(x({ ...S, pattern: "^b" })), pointer: `${X}/pattern`, reverse: "same" },
  { rule: "request-property-pattern-removed", before: I(x({ ...S, pattern: "^a" })), after: I(x(S)), pointer: `${X}/pattern`, reverse: "request-property-pattern-added" },
  { rule: "request-property-one-of-removed", before: I(x({ oneOf: [S, N] })), after: I(x({ oneOf: [S] })), pointer: `${X}/oneOf/1`, reverse: "request-property-one-of-added" },
  { rule: "request-property-any-of-removed", before: I(x({ anyOf: [S, N] })), after: I(x({ anyOf: [N] })), pointer: `${X}/anyOf/0`, reverse: "request-property-any-of-added" },
  { rule: "request-property-one-of-added", before: I(x({ oneOf: [S] })), after: I(x({ oneOf: [S, N] })), pointer: `${X}/oneOf/1`, reverse: "request-property-one-of-removed" },
  { rule: "request-property-any-of-added", before: I(x({ anyOf: [S] })), after: I(x({ anyOf: [S, N] })), pointer: `${X}/anyOf/1`, reverse: "request-property-any-of-removed" },
  { rule: "request-property-all-of-added", before: I(x({ allOf: [S] })), after: I(x({ allOf: [S, { minLength: 1 }] })), pointer: `${X}/allOf/1`, reverse: "request-property-all-of-removed" },
  { rule: "request-property-all-of-removed", before: I(x({ allOf: [S, { minLength: 1 }] })), after: I(x({ allOf: [S] })), pointer: `${X}/allOf/1`, reverse: "request-property-all-of-added" },
  { rule: "request-property-wrapped-in-one-of", before: I(x(S)), after: I(x({ oneOf: [S, N] })), pointer: `${X}/oneOf`, reverse: "request-property-composition-dropped" },
  { rule: "request-property-wrapped-in-any-of", before: I(obj({ a: S, b: S })), after: I(obj({ a: S, b: S }, undefined, { anyOf: branches })), pointer: "/inputSchema/anyOf", reverse: "request-property-composition-dropped" },
  { rule: "request-property-composition-dropped", before: I(obj({ a: S, b: S }, undefined, { oneOf: branches })), after: I(obj({ a: S, b: S })), pointer: "/inputSchema/oneOf", reverse: "request-property-wrapped-in-one-of" },
  { rule: "request-additional-properties-closed", before: I(obj({ a: S })), after: I(obj({ a: S }, undefined, { additionalProperties: false })), pointer: "/inputSchema/additionalProperties", reverse: "request-additional-properties-opened" },
  { rule: "request-additional-properties-opened", before: I(obj({ a: S }, undefined, { additionalProperties: false })), after: I(obj({ a: S })), pointer: "/inputSchema/additionalProperties", reverse: "request-additional-properties-closed" },
  { rule: "request-property-default-changed", before: I(x({ ...S, default: "a" })), after: I(x({ ...S, default: "b" })), pointer: `${X}/default`, reverse: "same" },
  { rule: "request-property-format-added", before: I(x(S)), after: I(x({ ...S, format: "uri" })), pointer: `${X}/format`, reverse: "request-property-format-removed" },
  { rule: "request-property-format-changed", before: I(x({ ...S, format: "uri" })), after: I(x({ ...S, format: "date-time" })), pointer: `${X}/format`, reverse: "same" },
  { rule: "request-property-format-removed", before: I(x({ ...S, format: "uri" })), after: I(x(S)), pointer: `${X}/format`, reverse: "request-property-format-added" },
  { rule: "request-property-constraint-changed", before: I(x({ ...N, multipleOf: 1 })), after: I(x({ ...N, multipleOf: 5 })), pointer: `${X}/multipleOf`, reverse: "same" },

  // outputSchema (response side)
  { rule: "response-required-property-removed", before: O(obj({ a: S, b: S }, ["a", "b"])), after: O(obj({ a: S }, ["a"])), pointer: "/outputSchema/properties/b", reverse: "response-required-property-added" },
  { rule: "response-property-became-optional", before: O(obj({ a: S }, ["a"])), after: O(obj({ a: S })), pointer: "/outputSchema/properties/a", reverse: "response-property-became-required" },
  { rule: "response-optional-property-removed", before: O(obj({ a: S, b: S })), after: O(obj({ a: S })), pointer: "/outputSchema/properties/b", reverse: "response-optional-property-added" },
  { rule: "response-required-property-added", before: O(obj({ a: S })), after: O(obj({ a: S, b: S }, ["b"])), pointer: "/outputSchema/properties/b", reverse: "response-required-property-removed" },
  { rule: "response-optional-property-added", before: O(obj({ a: S })), after: O(obj({ a: S, b: S })), pointer: "/outputSchema/properties/b", reverse: "response-optional-property-removed" },
  { rule: "response-property-became-required", before: O(obj({ a: S })), after: O(obj({ a: S }, ["a"])), pointer: "/outputSchema/properties/a", reverse: "response-property-became-optional" },
  { rule: "response-property-type-changed", before: O(x(S)), after: O(x({ type: "boolean" })), pointer: `${OX}/type`, reverse: "same" },
  { rule: "response-property-type-generalized", before: O(x(N)), after: O(x({ type: ["integer", "string"] })), pointer: `${OX}/type`, reverse: "response-property-type-specialized" },
  { rule: "response-property-type-specialized", before: O(x({ type: "number" })), after: O(x(N)), pointer: `${OX}/type`, reverse: "response-property-type-generalized" },
  { rule: "response-property-became-nullable", before: O(x(S)), after: O(x({ type: ["string", "null"] })), pointer: `${OX}/type`, reverse: "response-property-became-not-nullable" },
  { rule: "response-property-became-not-nullable", before: O(x({ type: ["string", "null"] })), after: O(x(S)), pointer: `${OX}/type`, reverse: "response-property-became-nullable" },
  { rule: "response-property-enum-value-added", before: O(x({ enum: ["ok"] })), after: O(x({ enum: ["ok", "partial"] })), pointer: `${OX}/enum`, reverse: "response-property-enum-value-removed" },
  { rule: "response-property-enum-value-removed", before: O(x({ enum: ["ok", "partial"] })), after: O(x({ enum: ["ok"] })), pointer: `${OX}/enum`, reverse: "response-property-enum-value-added" },
  { rule: "response-property-enum-removed", before: O(x({ ...S, enum: ["ok"] })), after: O(x(S)), pointer: `${OX}/enum`, reverse: "response-property-became-enum" },
  { rule: "response-property-became-enum", before: O(x(S)), after: O(x({ ...S, enum: ["ok"] })), pointer: `${OX}/enum`, reverse: "response-property-enum-removed" },
  { rule: "response-property-const-removed", before: O(x({ ...S, const: "v1" })), after: O(x(S)), pointer: `${OX}/const`, reverse: "response-property-const-added" },
  { rule: "response-property-const-changed", before: O(x({ const: "v1" })), after: O(x({ const: "v2" })), pointer: `${OX}/const`, reverse: "same" },
  { rule: "response-property-const-added", before: O(x(S)), after: O(x({ ...S, const: "v1" })), pointer: `${OX}/const`, reverse: "response-property-const-removed" },
  { rule: "response-property-max-increased", before: O(x({ ...S, maxLength: 5 })), after: O(x(S)), pointer: `${OX}/maxLength`, reverse: "response-property-max-decreased" },
  { rule: "response-property-min-decreased", before: O(x({ ...N, minimum: 5 })), after: O(x({ ...N, minimum: 1 })), pointer: `${OX}/minimum`, reverse: "response-property-min-increased" },
  { rule: "response-property-max-decreased", before: O(x({ ...N, maximum: 10 })), after: O(x({ ...N, maximum: 5 })), pointer: `${OX}/maximum`, reverse: "response-property-max-increased" },
  { rule: "response-property-min-increased", before: O(x({ type: "array", minItems: 0 })), after: O(x({ type: "array", minItems: 1 })), pointer: `${OX}/minItems`, reverse: "response-property-min-decreased" },
  { rule: "response-property-one-of-added", before: O(x({ oneOf: [S] })), after: O(x({ oneOf: [S, N] })), pointer: `${OX}/oneOf/1`, reverse: "response-property-one-of-removed" },
  { rule: "response-property-wrapped-in-one-of", before: O(x(S)), after: O(x({ oneOf: [S, N] })), pointer: `${OX}/oneOf`, reverse: "response-property-one-of-dropped" },
  { rule: "response-property-one-of-removed", before: O(x({ oneOf: [S, N] })), after: O(x({ oneOf: [S] })), pointer: `${OX}/oneOf/1`, reverse: "response-property-one-of-added" },
  { rule: "response-property-one-of-dropped", before: O(obj({ a: S, b: S }, undefined, { oneOf: branches })), after: O(obj({ a: S, b: S })), pointer: "/outputSchema/oneOf", reverse: "response-property-wrapped-in-one-of" },
  { rule: "response-property-any-of-changed", before: O(x({ anyOf: [S] })), after: O(x({ anyOf: [S, N] })), pointer: `${OX}/anyOf/1`, reverse: "same" },
  { rule: "response-property-all-of-changed", before: O(x({ allOf: [S] })), after: O(x({ allOf: [S, { minLength: 1 }] })), pointer: `${OX}/allOf/1`, reverse: "same" },
  { rule: "response-property-pattern-changed", before: O(x(S)), after: O(x({ ...S, pattern: "^a" })), pointer: `${OX}/pattern`, reverse: "same" },
  { rule: "response-property-default-changed", before: O(x({ ...S, default: "a" })), after: O(x({ ...S, default: "b" })), pointer: `${OX}/default`, reverse: "same" },
  { rule: "response-additional-properties-changed", before: O(obj({ a: S })), after: O(obj({ a: S }, undefined, { additionalProperties: false })), pointer: "/outputSchema/additionalProperties", reverse: "same" },
  { rule: "response-property-format-added", before: O(x(S)), after: O(x({ ...S, format: "date-time" })), pointer: `${OX}/format`, reverse: "response-property-format-removed" },
  { rule: "response-property-format-changed", before: O(x({ ...S, format: "date" })), after: O(x({ ...S, format: "date-time" })), pointer: `${OX}/format`, reverse: "same" },
  { rule: "response-property-format-removed", before: O(x({ ...S, format: "date-time" })), after: O(x(S)), pointer: `${OX}/format`, reverse: "response-property-format-added" },
  { rule: "response-property-constraint-changed", before: O(x({ type: "array" })), after: O(x({ type: "array", uniqueItems: true })), pointer: `${OX}/uniqueItems`, reverse: "same" },

  // Either side
  { rule: "schema-annotation-changed", before: I(x({ ...S, description: "The x." })), after: I(x({ ...S, description: "The new x." })), pointer: `${X}/description`, reverse: "same" },
  { rule: "schema-keyword-changed", before: I(x({ ...S, "x-order": 1 })), after: I(x({ ...S, "x-order": 2 })), pointer: `${X}/x-order`, reverse: "same" },
  { rule: "schema-ref-changed", before: I(x({ $ref: "https://example.com/a.json" })), after: I(x({ $ref: "https://example.com/b.json" })), pointer: `${X}/$ref`, reverse: "same" },
  { rule: "schema-too-deep", before: I(nest(70, S)), after: I(nest(70, N)), reverse: "same" },
];

function findingsOf(before: ToolLike[], after: ToolLike[]): Finding[] {
  const d = diffToolLists(before, after);
  return [...d.added, ...d.removed, ...d.changed].flatMap((e) => e.findings);
}

describe("diff rules (docs/detection-rules.md §2), one case per rule, both directions", () => {
  it("has a case for every rule in the catalogue", () => {
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(RULE_IDS));
    expect(cases).toHaveLength(RULE_IDS.length);
    expect(Object.keys(LEVEL).sort()).toEqual([...RULE_IDS].sort());
  });

  describe.each(cases)("$rule", ({ rule, before, after, pointer, reverse }) => {
    it(`fires on the change, at level ${LEVEL[rule]}`, () => {
      const hits = findingsOf(before, after).filter((f) => f.ruleId === rule);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0]!.level).toBe(LEVEL[rule]);
      if (pointer !== undefined) expect(hits.map((f) => f.pointer)).toContain(pointer);
    });

    it(reverse === "same" ? "is symmetric: the reverse change fires it too" : `the reverse change does not fire it${reverse ? ` (fires ${reverse})` : ""}`, () => {
      const ids = findingsOf(after, before).map((f) => f.ruleId);
      if (reverse === "same") expect(ids).toContain(rule);
      else {
        expect(ids).not.toContain(rule);
        if (reverse) expect(ids).toContain(reverse);
      }
    });
  });

  it("a new required request property is exactly one ERR, naming the property's pointer", () => {
    const errs = findingsOf(I(obj({ path: S }, ["path"])), I(obj({ path: S, encoding: S }, ["path", "encoding"]))).filter((f) => f.level === "ERR");
    expect(errs).toEqual([expect.objectContaining({ ruleId: "new-required-request-property", pointer: "/inputSchema/properties/encoding" })]);
  });

  it("an already-false additionalProperties makes a removed request property ERR, an open one WARN", () => {
    const closed = findingsOf(I(obj({ a: S }, [], { additionalProperties: false })), I(obj({}, [], { additionalProperties: false })));
    const open = findingsOf(I(obj({ a: S })), I(obj({})));
    expect(closed.map((f) => [f.ruleId, f.level])).toEqual([["request-property-removed-closed", "ERR"]]);
    expect(open.map((f) => [f.ruleId, f.level])).toEqual([["request-property-removed", "WARN"]]);
  });

  it("annotation defaults count: destructiveHint absent → false is a new safety claim, absent → true is not a change in effect", () => {
    expect(findingsOf([tool()], A({ destructiveHint: false })).map((f) => f.ruleId)).toEqual(["tool-annotation-safety-claimed"]);
    const same = findingsOf([tool()], A({ destructiveHint: true }));
    expect(same.map((f) => [f.ruleId, f.level])).toEqual([["tool-annotation-changed", "INFO"]]);
    expect(findingsOf(A({ readOnlyHint: true }), A({ readOnlyHint: false }))[0]).toMatchObject({ security: "high", level: "WARN" });
  });

  it("operators can override a rule's level", () => {
    const d = diffToolLists(I(x(S)), I(x({ ...S, default: "a" })), { levels: { "request-property-default-changed": "INFO" } });
    expect(d.changed[0]!.findings[0]).toMatchObject({ ruleId: "request-property-default-changed", level: "INFO" });
    expect(d.summary.highest).toBe("INFO");
  });
});
