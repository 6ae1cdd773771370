// The rule catalogue: every finding the diff engine can emit, with its default level.
// Levels follow docs/detection-rules.md §2 (adapted from oasdiff: ERR definitely breaking, WARN
// possibly breaking, INFO not breaking). Rows marked "doc silent" are our choice; the reason is
// in the comment beside them. Operators may override any level (DiffOptions.levels).

export type Level = "ERR" | "WARN" | "INFO";
export const LEVEL_RANK: Record<Level, number> = { ERR: 3, WARN: 2, INFO: 1 };

export const RULES = {
  // Tool level (MCP-specific)
  "tool-added": "INFO",
  "tool-removed": "ERR",
  "tool-renamed": "ERR", // R30: callers using the old name break
  "tool-title-changed": "INFO",
  "tool-description-changed": "INFO",
  "tool-output-schema-added": "INFO",
  "tool-output-schema-removed": "WARN", // the doc's bold row: the guarantee is lost, the data may still come
  "tool-annotation-escalated": "WARN", // R27 escalation (security high); compat INFO in the doc, raised so --fail-on WARN sees it
  "tool-annotation-safety-claimed": "INFO", // R27 weaker safety claim (security medium)
  "tool-annotation-changed": "INFO",
  "tool-field-changed": "INFO", // doc silent: _meta, icons, execution… do not change the call contract

  // inputSchema: the request side, narrowing breaks callers
  "new-required-request-property": "ERR",
  "request-property-became-required": "ERR",
  "request-property-removed": "WARN",
  "request-property-removed-closed": "ERR", // removed while additionalProperties is false: calls sending it are rejected
  "new-optional-request-property": "INFO",
  "request-property-became-optional": "INFO",
  "request-property-type-changed": "ERR",
  "request-property-type-generalized": "INFO",
  "request-property-became-not-nullable": "ERR",
  "request-property-became-nullable": "INFO",
  "request-property-enum-value-removed": "ERR",
  "request-property-became-enum": "ERR",
  "request-property-enum-value-added": "INFO",
  "request-property-enum-removed": "INFO", // doc silent: dropping the enum accepts every former value
  "request-property-const-added": "ERR",
  "request-property-const-changed": "ERR",
  "request-property-const-removed": "INFO", // doc silent: widening
  "request-property-max-decreased": "ERR",
  "request-property-min-increased": "ERR",
  "request-property-max-set": "WARN",
  "request-property-min-set": "WARN",
  "request-property-max-increased": "INFO", // also: bound removed
  "request-property-min-decreased": "INFO", // also: bound removed
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
  "request-property-wrapped-in-any-of": "ERR", // anyOf introduced without the old schema among its branches: a new constraint
  "request-property-composition-dropped": "INFO", // doc silent: oneOf/anyOf gone entirely is a widening
  "request-additional-properties-closed": "ERR",
  "request-additional-properties-opened": "INFO",
  "request-property-default-changed": "WARN", // the doc's "behavioural" flag: models usually omit optional arguments
  "request-property-format-added": "WARN",
  "request-property-format-changed": "WARN", // doc silent: a different format is as enforceable as a new one
  "request-property-format-removed": "INFO",
  "request-property-constraint-changed": "WARN", // doc silent: multipleOf, not, if/then, patternProperties… direction not analysed

  // outputSchema: the response side (structuredContent), widening breaks consumers
  "response-required-property-removed": "ERR",
  "response-property-became-optional": "ERR",
  "response-optional-property-removed": "WARN",
  "response-required-property-added": "INFO",
  "response-optional-property-added": "INFO",
  "response-property-became-required": "INFO", // doc silent: narrowing a response is safe
  "response-property-type-changed": "ERR",
  "response-property-type-generalized": "ERR",
  "response-property-type-specialized": "INFO",
  "response-property-became-nullable": "ERR",
  "response-property-became-not-nullable": "INFO",
  "response-property-enum-value-added": "WARN",
  "response-property-enum-value-removed": "INFO",
  "response-property-enum-removed": "WARN", // doc silent: like adding every value at once
  "response-property-became-enum": "INFO", // doc silent: narrowing
  "response-property-const-removed": "ERR",
  "response-property-const-changed": "ERR",
  "response-property-const-added": "INFO",
  "response-property-max-increased": "ERR", // also: bound removed (oasdiff MaxLengthUnset)
  "response-property-min-decreased": "ERR", // also: bound removed
  "response-property-max-decreased": "INFO", // also: bound set
  "response-property-min-increased": "INFO", // also: bound set
  "response-property-one-of-added": "ERR",
  "response-property-wrapped-in-one-of": "ERR",
  "response-property-one-of-removed": "INFO",
  "response-property-one-of-dropped": "WARN", // doc silent: results no longer promised to match one of the shapes
  "response-property-any-of-changed": "INFO",
  "response-property-all-of-changed": "INFO",
  "response-property-pattern-changed": "INFO",
  "response-property-default-changed": "INFO",
  "response-additional-properties-changed": "INFO", // doc silent: consistent with "property added: INFO"
  "response-property-format-added": "INFO", // doc silent: narrowing
  "response-property-format-changed": "WARN", // doc silent: consumers may parse by format
  "response-property-format-removed": "WARN",
  "response-property-constraint-changed": "WARN",

  // Either side
  "schema-annotation-changed": "INFO", // description, title, examples, deprecated, readOnly/writeOnly, discriminator
  "schema-keyword-changed": "INFO", // keywords without a rule ($schema, $id, x-…)
  "schema-ref-changed": "WARN", // a $ref we cannot follow (remote, or missing target) now points elsewhere
  "schema-too-deep": "WARN", // the walk stopped; deeper changes are listed as fields but not classified
} as const satisfies Record<string, Level>;

export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];

export type LevelOverrides = Partial<Record<RuleId, Level>>;

export function levelOf(ruleId: RuleId, overrides?: LevelOverrides): Level {
  return overrides?.[ruleId] ?? RULES[ruleId];
}

export function highestLevel(levels: Iterable<Level>): Level | null {
  let best: Level | null = null;
  for (const level of levels) if (!best || LEVEL_RANK[level] > LEVEL_RANK[best]) best = level;
  return best;
}
