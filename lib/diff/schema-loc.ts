import type { FindingSink } from "./findings";
import { fragmentTokens, isObject, joinPointer, jsonKeys, own, type JsonObject } from "./json";
import type { RuleId } from "./rules";

export type Side = "request" | "response";

/** A schema node being compared, with the pointer where it lives in the tool. */
export type Loc = {
  /** Normalised: `true`, absent and null are `{}`; `false` is `{ not: {} }`. */
  node: JsonObject;
  base: string;
  /** Set when the node was reached through a local `$ref`: the referencing site and the target. */
  site?: string;
  refKey?: string;
  /** Keywords written beside the `$ref` (they live at `site`, not at the target). */
  siteKeys?: ReadonlySet<string>;
  /** A `$ref` that could not be followed (remote, anchor, or missing target). */
  unresolvedRef?: string;
};

/** Emits findings for one side of one tool, remembering the `$ref` site the walk came through. */
export type RuleCtx = {
  side: Side;
  sink: FindingSink;
  via?: string;
};

export function emit(ctx: RuleCtx, ruleId: RuleId, pointer: string, message: string): void {
  ctx.sink.add(ruleId, pointer, message, ctx.via ? { via: ctx.via } : undefined);
}

/** Pick the request- or the response-side rule. */
export function bySide(ctx: RuleCtx, request: RuleId, response: RuleId): RuleId {
  return ctx.side === "request" ? request : response;
}

export function normalizeSchema(value: unknown): JsonObject {
  if (value === false) return { not: {} };
  return isObject(value) ? value : {};
}

export function locOf(value: unknown, pointer: string): Loc {
  return { node: normalizeSchema(value), base: pointer };
}

/** Pointer of one keyword of a node (keywords beside a `$ref` live at the referencing site). */
export function ptr(loc: Loc, keyword: string): string {
  return joinPointer(loc.siteKeys?.has(keyword) && loc.site ? loc.site : loc.base, keyword);
}

/** Pointer of a keyword: in the new version if it is there, else in the old one. */
export function kwPtr(b: Loc, a: Loc, keyword: string): string {
  if (own(a.node, keyword) !== undefined || own(b.node, keyword) === undefined) return ptr(a, keyword);
  return ptr(b, keyword);
}

/**
 * Follows local `$ref`s (#, #/$defs/…, #/definitions/…, any JSON pointer fragment) to their
 * target. Keywords beside a `$ref` are laid over the target (2019-09+ semantics, approximated:
 * sibling wins). A chain of refs that loops back on itself resolves to `{}`.
 */
export function deref(loc: Loc, root: unknown, rootPtr: string): Loc {
  let node = loc.node;
  let siblings: JsonObject | undefined;
  let base = loc.base;
  let refKey: string | undefined;
  const chain = new Set<string>();
  while (typeof node.$ref === "string") {
    const ref = node.$ref;
    const tokens = fragmentTokens(ref);
    const target = tokens ? resolveTokens(root, tokens) : undefined;
    if (!tokens || target === undefined) {
      if (!refKey) return { ...loc, unresolvedRef: ref };
      return { node: { ...node, ...siblings }, base, site: loc.base, refKey, unresolvedRef: ref };
    }
    const rest = { ...node };
    delete rest.$ref;
    if (jsonKeys(rest).length) siblings = { ...rest, ...siblings };
    base = joinPointer(rootPtr, ...tokens);
    refKey = base;
    if (chain.has(base)) {
      node = {};
      break;
    }
    chain.add(base);
    node = normalizeSchema(target);
  }
  if (!refKey) return loc;
  const out: Loc = { node: siblings ? { ...node, ...siblings } : node, base, site: loc.base, refKey };
  if (siblings) out.siteKeys = new Set(jsonKeys(siblings));
  return out;
}

function resolveTokens(root: unknown, tokens: string[]): unknown {
  let cur: unknown = root;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(t)) return undefined;
      cur = cur[Number(t)];
    } else if (isObject(cur)) {
      if (!Object.hasOwn(cur, t)) return undefined;
      cur = cur[t];
    } else return undefined;
  }
  return cur === null ? undefined : cur;
}
