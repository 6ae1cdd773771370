import { brief, canonicalKey, jsonEqual, jsonKeys, own } from "./json";
import { bySide, emit, kwPtr, type Loc, type RuleCtx } from "./schema-loc";

// Keyword rules for one pair of schema nodes (detection-rules §2). Structure (properties,
// required, items, compositions, schema-valued additionalProperties) is walked in schema-walk.ts.

export const STRUCTURAL = new Set([
  "properties", "required", "items", "prefixItems", "additionalProperties", "allOf", "anyOf", "oneOf", "$ref", "$defs", "definitions",
]);
const MAX_KEYS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
const MIN_KEYS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
const ANNOTATIONS = new Set([
  "title", "description", "markdownDescription", "examples", "example", "deprecated", "readOnly", "writeOnly", "discriminator",
  "$comment", "contentMediaType", "contentEncoding", "contentSchema",
]);
/** Validation keywords without a directional rule: any change is "possibly breaking" on either side. */
const CONSTRAINTS = new Set([
  "multipleOf", "uniqueItems", "not", "if", "then", "else", "contains", "minContains", "maxContains", "propertyNames",
  "patternProperties", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems", "additionalItems",
]);
const HANDLED = new Set([
  ...STRUCTURAL, ...MAX_KEYS, ...MIN_KEYS, ...ANNOTATIONS, ...CONSTRAINTS, "type", "nullable", "enum", "const", "pattern", "format", "default",
]);

export function compareKeywords(b: Loc, a: Loc, ctx: RuleCtx): void {
  compareTypes(b, a, ctx);
  compareEnum(b, a, ctx);
  compareConst(b, a, ctx);
  for (const k of MAX_KEYS) compareBound(b, a, ctx, k, "max");
  for (const k of MIN_KEYS) compareBound(b, a, ctx, k, "min");
  comparePattern(b, a, ctx);
  compareFormat(b, a, ctx);
  if (!jsonEqual(b.node.default, a.node.default)) {
    emit(ctx, bySide(ctx, "request-property-default-changed", "response-property-default-changed"), kwPtr(b, a, "default"),
      `default ${brief(b.node.default)} → ${brief(a.node.default)}${ctx.side === "request" ? ": calls that omit the argument now behave differently" : ""}`);
  }
  const closedB = b.node.additionalProperties === false;
  const closedA = a.node.additionalProperties === false;
  if (closedB !== closedA) {
    const p = kwPtr(b, a, "additionalProperties");
    if (ctx.side === "response") emit(ctx, "response-additional-properties-changed", p, closedA ? "unknown properties no longer returned" : "unknown properties may now be returned");
    else if (closedA) emit(ctx, "request-additional-properties-closed", p, "additionalProperties is now false: calls passing any undeclared argument are rejected");
    else emit(ctx, "request-additional-properties-opened", p, "undeclared arguments are now accepted");
  }
  if ((b.unresolvedRef || a.unresolvedRef) && b.unresolvedRef !== a.unresolvedRef) {
    emit(ctx, "schema-ref-changed", kwPtr(b, a, "$ref"), `$ref ${brief(b.unresolvedRef)} → ${brief(a.unresolvedRef)} (not followed: only local refs are)`);
  }
  const keys = [...new Set([...jsonKeys(b.node), ...jsonKeys(a.node)])].sort();
  for (const k of keys) {
    const bv = own(b.node, k);
    const av = own(a.node, k);
    if (jsonEqual(bv, av)) continue;
    if (ANNOTATIONS.has(k)) emit(ctx, "schema-annotation-changed", kwPtr(b, a, k), `${k} changed`);
    else if (CONSTRAINTS.has(k)) {
      emit(ctx, bySide(ctx, "request-property-constraint-changed", "response-property-constraint-changed"), kwPtr(b, a, k), `${k} ${brief(bv, 40)} → ${brief(av, 40)}`);
    } else if (!HANDLED.has(k)) emit(ctx, "schema-keyword-changed", kwPtr(b, a, k), `${k} ${brief(bv, 40)} → ${brief(av, 40)}`);
  }
}

/** Declared JSON types (with OpenAPI's `nullable: true` as "null"), or undefined for "any type". */
function typeSet(node: Record<string, unknown>): Set<string> | undefined {
  const t = node.type;
  let set: Set<string> | undefined;
  if (typeof t === "string") set = new Set([t]);
  else if (Array.isArray(t)) set = new Set(t.filter((x): x is string => typeof x === "string"));
  if (set && node.nullable === true) set.add("null");
  return set;
}

/** Every type of `inner` is accepted by `outer` (integer is a number). */
function covers(outer: Set<string>, inner: Set<string>): boolean {
  for (const t of inner) if (!outer.has(t) && !(t === "integer" && outer.has("number"))) return false;
  return true;
}

const show = (s: Set<string> | undefined) => (s ? (s.size ? [...s].sort().join("|") : "none") : "any");

function compareTypes(b: Loc, a: Loc, ctx: RuleCtx): void {
  const bt = typeSet(b.node);
  const at = typeSet(a.node);
  if (!bt && !at) return;
  const p = kwPtr(b, a, "type");
  const req = ctx.side === "request";
  if (!bt || !at) {
    // From "any type" to a declared type narrows; the reverse widens.
    const narrowed = !bt;
    const msg = `type ${show(bt)} → ${show(at)}`;
    if (narrowed) emit(ctx, req ? "request-property-type-changed" : "response-property-type-specialized", p, msg);
    else emit(ctx, req ? "request-property-type-generalized" : "response-property-type-generalized", p, msg);
    return;
  }
  const bNull = bt.has("null");
  const aNull = at.has("null");
  if (bNull && !aNull) emit(ctx, bySide(ctx, "request-property-became-not-nullable", "response-property-became-not-nullable"), p, "null no longer allowed");
  if (!bNull && aNull) emit(ctx, bySide(ctx, "request-property-became-nullable", "response-property-became-nullable"), p, "null now allowed");
  const bn = new Set([...bt].filter((t) => t !== "null"));
  const an = new Set([...at].filter((t) => t !== "null"));
  const wider = covers(an, bn);
  const narrower = covers(bn, an);
  if (wider && narrower) return;
  const msg = `type ${show(bn)} → ${show(an)}`;
  if (wider) emit(ctx, bySide(ctx, "request-property-type-generalized", "response-property-type-generalized"), p, msg);
  else if (narrower) emit(ctx, bySide(ctx, "request-property-type-changed", "response-property-type-specialized"), p, msg);
  else emit(ctx, bySide(ctx, "request-property-type-changed", "response-property-type-changed"), p, msg);
}

function compareEnum(b: Loc, a: Loc, ctx: RuleCtx): void {
  const be = Array.isArray(b.node.enum) ? b.node.enum : undefined;
  const ae = Array.isArray(a.node.enum) ? a.node.enum : undefined;
  if (!be && !ae) return;
  const p = kwPtr(b, a, "enum");
  if (!be) return emit(ctx, bySide(ctx, "request-property-became-enum", "response-property-became-enum"), p, `now limited to ${brief(ae)}`);
  if (!ae) return emit(ctx, bySide(ctx, "request-property-enum-removed", "response-property-enum-removed"), p, `no longer limited to ${brief(be)}`);
  const bk = new Set(be.map(canonicalKey));
  const ak = new Set(ae.map(canonicalKey));
  const removed = be.filter((v) => !ak.has(canonicalKey(v)));
  const added = ae.filter((v) => !bk.has(canonicalKey(v)));
  if (removed.length) {
    emit(ctx, bySide(ctx, "request-property-enum-value-removed", "response-property-enum-value-removed"), p,
      `enum value${removed.length > 1 ? "s" : ""} removed: ${values(removed)}`);
  }
  if (added.length) {
    emit(ctx, bySide(ctx, "request-property-enum-value-added", "response-property-enum-value-added"), p,
      `enum value${added.length > 1 ? "s" : ""} added: ${values(added)}`);
  }
}

function values(list: unknown[]): string {
  const text = list.map((v) => JSON.stringify(v)).join(", ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function compareConst(b: Loc, a: Loc, ctx: RuleCtx): void {
  const bc = b.node.const;
  const ac = a.node.const;
  if (jsonEqual(bc, ac)) return;
  const p = kwPtr(b, a, "const");
  const msg = `const ${brief(bc)} → ${brief(ac)}`;
  if (bc === undefined) emit(ctx, bySide(ctx, "request-property-const-added", "response-property-const-added"), p, msg);
  else if (ac === undefined) emit(ctx, bySide(ctx, "request-property-const-removed", "response-property-const-removed"), p, msg);
  else emit(ctx, bySide(ctx, "request-property-const-changed", "response-property-const-changed"), p, msg);
}

const finite = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function compareBound(b: Loc, a: Loc, ctx: RuleCtx, key: string, family: "max" | "min"): void {
  const bv = b.node[key];
  const av = a.node[key];
  if (jsonEqual(bv, av)) return;
  let kind: "tighten" | "relax" | "set" | "unset";
  if (typeof bv === "boolean" || typeof av === "boolean") {
    kind = av === true ? "tighten" : "relax"; // draft-04 exclusiveMaximum/Minimum flags
  } else {
    const bn = finite(bv);
    const an = finite(av);
    if (bn === undefined && an === undefined) return;
    if (bn === undefined) kind = "set";
    else if (an === undefined) kind = "unset";
    else kind = (family === "max" ? an < bn : an > bn) ? "tighten" : "relax";
  }
  const p = kwPtr(b, a, key);
  const msg = kind === "set" ? `${key} set to ${brief(av)} (was unbounded)` : kind === "unset" ? `${key} removed (was ${brief(bv)})` : `${key} ${brief(bv)} → ${brief(av)}`;
  if (ctx.side === "request") {
    if (kind === "tighten") emit(ctx, family === "max" ? "request-property-max-decreased" : "request-property-min-increased", p, msg);
    else if (kind === "set") emit(ctx, family === "max" ? "request-property-max-set" : "request-property-min-set", p, msg);
    else emit(ctx, family === "max" ? "request-property-max-increased" : "request-property-min-decreased", p, msg);
  } else if (kind === "relax" || kind === "unset") {
    emit(ctx, family === "max" ? "response-property-max-increased" : "response-property-min-decreased", p, msg);
  } else {
    emit(ctx, family === "max" ? "response-property-max-decreased" : "response-property-min-increased", p, msg);
  }
}

function comparePattern(b: Loc, a: Loc, ctx: RuleCtx): void {
  const bp = b.node.pattern;
  const ap = a.node.pattern;
  if (jsonEqual(bp, ap)) return;
  const p = kwPtr(b, a, "pattern");
  const msg = `pattern ${brief(bp)} → ${brief(ap)}`;
  if (ctx.side === "response") return emit(ctx, "response-property-pattern-changed", p, msg);
  if (bp === undefined) emit(ctx, "request-property-pattern-added", p, msg);
  else if (ap === undefined) emit(ctx, "request-property-pattern-removed", p, msg);
  else emit(ctx, "request-property-pattern-changed", p, msg);
}

function compareFormat(b: Loc, a: Loc, ctx: RuleCtx): void {
  const bf = b.node.format;
  const af = a.node.format;
  if (jsonEqual(bf, af)) return;
  const p = kwPtr(b, a, "format");
  const msg = `format ${brief(bf)} → ${brief(af)}`;
  if (bf === undefined) emit(ctx, bySide(ctx, "request-property-format-added", "response-property-format-added"), p, msg);
  else if (af === undefined) emit(ctx, bySide(ctx, "request-property-format-removed", "response-property-format-removed"), p, msg);
  else emit(ctx, bySide(ctx, "request-property-format-changed", "response-property-format-changed"), p, msg);
}

