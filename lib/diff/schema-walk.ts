import type { FindingSink } from "./findings";
import { containsKey, isObject, joinPointer, jsonEqual, jsonKeys } from "./json";
import type { RuleId } from "./rules";
import { bySide, deref, emit, kwPtr, locOf, ptr, type Loc, type RuleCtx, type Side } from "./schema-loc";
import { compareKeywords } from "./schema-rules";

/** Nesting depth at which the walk stops (and says so with schema-too-deep). */
const MAX_DEPTH = 64;

type Walk = {
  side: Side;
  sink: FindingSink;
  roots: { before: unknown; after: unknown };
  rootPtr: string;
  /** Pairs of `$ref` targets already compared: ends recursive schemas, and reports a shared definition once. */
  visited: Set<string>;
};

/**
 * Classifies every change between two versions of one schema: `side` "request" for inputSchema
 * (narrowing breaks callers), "response" for outputSchema (widening breaks consumers). Recurses
 * through properties, items and tuples, allOf/anyOf/oneOf, schema-valued additionalProperties and
 * local `$ref`s.
 */
export function compareSchemas(before: unknown, after: unknown, side: Side, rootPtr: string, sink: FindingSink): void {
  const w: Walk = { side, sink, roots: { before, after }, rootPtr, visited: new Set([`${rootPtr}\u0000${rootPtr}`]) };
  walk(w, locOf(before, rootPtr), locOf(after, rootPtr), 0, undefined);
}

function walk(w: Walk, b0: Loc, a0: Loc, depth: number, via: string | undefined): void {
  const b = deref(b0, w.roots.before, w.rootPtr);
  const a = deref(a0, w.roots.after, w.rootPtr);
  if (b.refKey || a.refKey) {
    via = a.site ?? b.site ?? via;
    const key = `${b.refKey ?? b.base}\u0000${a.refKey ?? a.base}`;
    if (w.visited.has(key)) return;
    w.visited.add(key);
  }
  // Equal nodes are done unless they refer elsewhere: a `$ref` to a changed definition changes them.
  if (jsonEqual(b.node, a.node) && b.unresolvedRef === a.unresolvedRef && !containsKey(b.node, "$ref")) return;
  const ctx: RuleCtx = { side: w.side, sink: w.sink, via };
  if (depth >= MAX_DEPTH) {
    emit(ctx, "schema-too-deep", a.base, `schemas nested deeper than ${MAX_DEPTH} levels: changes below are not classified`);
    return;
  }
  if (rejectsAll(b, a, ctx) || wrapped(b, a, ctx)) return;
  compareKeywords(b, a, ctx);
  compareProperties(w, b, a, depth, ctx);
  compareItems(w, b, a, depth, via);
  const bap = b.node.additionalProperties;
  const aap = a.node.additionalProperties;
  if (bap !== false && aap !== false && (isObject(bap) || isObject(aap))) {
    walk(w, locOf(bap, ptr(b, "additionalProperties")), locOf(aap, ptr(a, "additionalProperties")), depth + 1, via);
  }
  for (const kw of ["allOf", "anyOf", "oneOf"] as const) compareBranches(w, b, a, kw, depth, ctx);
}

const isFalseSchema = (node: Record<string, unknown>) => isObject(node.not) && jsonKeys(node.not).length === 0;

/** `false` (or `{not: {}}`) accepts nothing: turning it into any schema widens, and the reverse narrows. */
function rejectsAll(b: Loc, a: Loc, ctx: RuleCtx): boolean {
  const bF = isFalseSchema(b.node);
  const aF = isFalseSchema(a.node);
  if (bF === aF) return false;
  if (bF) emit(ctx, bySide(ctx, "request-property-type-generalized", "response-property-type-generalized"), a.base, "schema was false (no value allowed), now accepts values");
  else emit(ctx, bySide(ctx, "request-property-type-changed", "response-property-type-specialized"), a.base, "schema is now false: no value is allowed");
  return true;
}

const requiredOf = (node: Record<string, unknown>) => (Array.isArray(node.required) ? node.required.filter((x): x is string => typeof x === "string") : []);
const propsOf = (node: Record<string, unknown>) => (isObject(node.properties) ? node.properties : {});

function compareProperties(w: Walk, b: Loc, a: Loc, depth: number, ctx: RuleCtx): void {
  const bp = propsOf(b.node);
  const ap = propsOf(a.node);
  const breq = requiredOf(b.node);
  const areq = requiredOf(a.node);
  const names = [...new Set([...jsonKeys(bp), ...jsonKeys(ap), ...breq, ...areq])].sort();
  const closedAfter = a.node.additionalProperties === false;
  for (const name of names) {
    const inB = Object.hasOwn(bp, name) && bp[name] !== undefined;
    const inA = Object.hasOwn(ap, name) && ap[name] !== undefined;
    const rB = breq.includes(name);
    const rA = areq.includes(name);
    // Where the property is declared, else where it is listed as required: new version first.
    const pA = inA ? joinPointer(ptr(a, "properties"), name)
      : rA ? joinPointer(ptr(a, "required"), areq.indexOf(name))
      : inB ? joinPointer(ptr(b, "properties"), name)
      : joinPointer(ptr(b, "required"), breq.indexOf(name));
    const pB = inB ? joinPointer(ptr(b, "properties"), name) : rB ? joinPointer(ptr(b, "required"), breq.indexOf(name)) : pA;
    const q = JSON.stringify(name);
    if (ctx.side === "request") {
      if (inB && !inA) {
        if (closedAfter) emit(ctx, "request-property-removed-closed", pB, `property ${q} removed and additionalProperties is false: calls that still send it are rejected`);
        else emit(ctx, "request-property-removed", pB, `property ${q} removed: calls that still send it may be ignored or rejected`);
        continue;
      }
      if (!inB && inA && rA && !rB) {
        emit(ctx, "new-required-request-property", pA, `new required property ${q}: calls that omit it are rejected`);
        continue;
      }
      if (!inB && inA && !rA) emit(ctx, "new-optional-request-property", pA, `new optional property ${q}`);
      if (!rB && rA) emit(ctx, "request-property-became-required", pA, `property ${q} became required: calls that omit it are rejected`);
      if (rB && !rA) emit(ctx, "request-property-became-optional", pA, `property ${q} became optional`);
    } else {
      if (inB && !inA) {
        if (rB) emit(ctx, "response-required-property-removed", pB, `required property ${q} removed: consumers reading it break`);
        else emit(ctx, "response-optional-property-removed", pB, `optional property ${q} removed`);
        continue;
      }
      if (!inB && inA) {
        if (rA) emit(ctx, "response-required-property-added", pA, `new required property ${q}`);
        else emit(ctx, "response-optional-property-added", pA, `new optional property ${q}`);
      }
      if (rB && !rA) emit(ctx, "response-property-became-optional", pA, `property ${q} became optional: consumers expecting it may not get it`);
      if (!rB && rA && (inB || !inA)) emit(ctx, "response-property-became-required", pA, `property ${q} became required`);
    }
    // Declared on both sides, or newly declared for a name that was already required (a narrowing).
    if (inA && (inB || (ctx.side === "request" && rB))) walk(w, locOf(bp[name], pB), locOf(ap[name], pA), depth + 1, ctx.via);
  }
}

function tupleOf(node: Record<string, unknown>): { kw: string; list: unknown[] } | undefined {
  if (Array.isArray(node.prefixItems)) return { kw: "prefixItems", list: node.prefixItems };
  if (Array.isArray(node.items)) return { kw: "items", list: node.items }; // draft-04 tuple form
  return undefined;
}

function compareItems(w: Walk, b: Loc, a: Loc, depth: number, via: string | undefined): void {
  const bt = tupleOf(b.node);
  const at = tupleOf(a.node);
  if (bt || at) {
    const n = Math.max(bt?.list.length ?? 0, at?.list.length ?? 0);
    for (let i = 0; i < n; i++) {
      const pb = joinPointer(ptr(b, bt?.kw ?? at!.kw), i);
      const pa = joinPointer(ptr(a, at?.kw ?? bt!.kw), i);
      walk(w, locOf(bt?.list[i], pb), locOf(at?.list[i], pa), depth + 1, via);
    }
  }
  const bi = Array.isArray(b.node.items) ? undefined : b.node.items;
  const ai = Array.isArray(a.node.items) ? undefined : a.node.items;
  if (bi !== undefined || ai !== undefined) walk(w, locOf(bi, ptr(b, "items")), locOf(ai, ptr(a, "items")), depth + 1, via);
}

type Kw = "allOf" | "anyOf" | "oneOf";

/** A schema moved into (or out of) a oneOf/anyOf branch: one finding, not a cascade of "removed" ones. */
function wrapped(b: Loc, a: Loc, ctx: RuleCtx): boolean {
  for (const kw of ["oneOf", "anyOf"] as const) {
    const into = !Array.isArray(b.node[kw]) && Array.isArray(a.node[kw]) && (a.node[kw] as unknown[]).some((x) => jsonEqual(x, b.node));
    const outOf = Array.isArray(b.node[kw]) && !Array.isArray(a.node[kw]) && (b.node[kw] as unknown[]).some((x) => jsonEqual(x, a.node));
    if (!into && !outOf) continue;
    const p = kwPtr(b, a, kw);
    if (into && kw === "oneOf") emit(ctx, bySide(ctx, "request-property-wrapped-in-one-of", "response-property-wrapped-in-one-of"), p, "schema wrapped in oneOf: a value must now match exactly one branch");
    else if (into) emit(ctx, bySide(ctx, "request-property-any-of-added", "response-property-any-of-changed"), p, "schema wrapped in anyOf beside new alternatives");
    else if (kw === "oneOf") emit(ctx, bySide(ctx, "request-property-composition-dropped", "response-property-one-of-dropped"), p, "oneOf unwrapped to one of its branches");
    else emit(ctx, bySide(ctx, "request-property-composition-dropped", "response-property-any-of-changed"), p, "anyOf unwrapped to one of its branches");
    return true;
  }
  return false;
}

const BRANCH_RULES: Record<Kw, Record<"request" | "response", { added: RuleId; removed: RuleId; introduced: RuleId; dropped: RuleId }>> = {
  oneOf: {
    request: { added: "request-property-one-of-added", removed: "request-property-one-of-removed", introduced: "request-property-wrapped-in-one-of", dropped: "request-property-composition-dropped" },
    response: { added: "response-property-one-of-added", removed: "response-property-one-of-removed", introduced: "response-property-wrapped-in-one-of", dropped: "response-property-one-of-dropped" },
  },
  anyOf: {
    request: { added: "request-property-any-of-added", removed: "request-property-any-of-removed", introduced: "request-property-wrapped-in-any-of", dropped: "request-property-composition-dropped" },
    response: { added: "response-property-any-of-changed", removed: "response-property-any-of-changed", introduced: "response-property-any-of-changed", dropped: "response-property-any-of-changed" },
  },
  allOf: {
    request: { added: "request-property-all-of-added", removed: "request-property-all-of-removed", introduced: "request-property-all-of-added", dropped: "request-property-all-of-removed" },
    response: { added: "response-property-all-of-changed", removed: "response-property-all-of-changed", introduced: "response-property-all-of-changed", dropped: "response-property-all-of-changed" },
  },
};

/** Branches equal on both sides are paired first; the rest pair in order and are compared; leftovers are added or removed. */
function compareBranches(w: Walk, b: Loc, a: Loc, kw: Kw, depth: number, ctx: RuleCtx): void {
  const B = Array.isArray(b.node[kw]) ? (b.node[kw] as unknown[]) : undefined;
  const A = Array.isArray(a.node[kw]) ? (a.node[kw] as unknown[]) : undefined;
  if (!B && !A) return;
  const rules = BRANCH_RULES[kw][ctx.side];
  if (!B) return emit(ctx, rules.introduced, ptr(a, kw), `${kw} introduced with ${A!.length} branch${A!.length === 1 ? "" : "es"}`);
  if (!A) return emit(ctx, rules.dropped, ptr(b, kw), `${kw} removed (had ${B.length} branch${B.length === 1 ? "" : "es"})`);
  const usedA = new Set<number>();
  const pairs: Array<[number, number]> = [];
  const loneB: number[] = [];
  B.forEach((x, i) => {
    const j = A.findIndex((y, j) => !usedA.has(j) && jsonEqual(x, y));
    if (j < 0) return void loneB.push(i);
    usedA.add(j);
    pairs.push([i, j]);
  });
  const loneA = A.map((_, j) => j).filter((j) => !usedA.has(j));
  const n = Math.min(loneB.length, loneA.length);
  for (let k = 0; k < n; k++) pairs.push([loneB[k]!, loneA[k]!]);
  for (const [i, j] of pairs) walk(w, locOf(B[i], joinPointer(ptr(b, kw), i)), locOf(A[j], joinPointer(ptr(a, kw), j)), depth + 1, ctx.via);
  for (const i of loneB.slice(n)) emit(ctx, rules.removed, joinPointer(ptr(b, kw), i), `${kw} branch ${i} removed`);
  for (const j of loneA.slice(n)) emit(ctx, rules.added, joinPointer(ptr(a, kw), j), `${kw} branch ${j} added`);
}
