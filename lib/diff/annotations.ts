import type { FindingSink } from "./findings";
import { brief, isObject, joinPointer, jsonEqual, jsonKeys, own } from "./json";

// Annotations are hints, not a contract (INFO for compatibility), but detection-rules R27 makes
// some changes security-relevant. Values are compared as the client sees them, defaults applied
// (MCP: readOnlyHint false, destructiveHint true, openWorldHint true), so `absent → false` on
// destructiveHint is the change it really is.

const DEFAULTS = { readOnlyHint: false, destructiveHint: true, openWorldHint: true } as const;
type Hint = keyof typeof DEFAULTS;

/** The value that signals more risk: its arrival is an escalation, its departure a new safety claim. */
const RISKY: Record<Hint, boolean> = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };

const EXPLAIN: Record<Hint, [escalated: string, claimed: string]> = {
  readOnlyHint: ["no longer read-only: it may now modify its environment", "now claims to be read-only: policies may run it without asking"],
  destructiveHint: ["now declares destructive updates", "no longer declares destructive updates: policies may run it without asking"],
  openWorldHint: ["now reaches an open world (external systems)", "now claims a closed world"],
};

export function compareAnnotations(before: unknown, after: unknown, sink: FindingSink): void {
  if (jsonEqual(before, after)) return;
  const base = "/annotations";
  if (!(before === undefined || isObject(before)) || !(after === undefined || isObject(after))) {
    sink.add("tool-annotation-changed", base, `annotations ${brief(before)} → ${brief(after)}`);
    return;
  }
  const b = before ?? {};
  const a = after ?? {};
  const effective = (o: Record<string, unknown>, hint: Hint) => (typeof own(o, hint) === "boolean" ? (o[hint] as boolean) : DEFAULTS[hint]);
  // destructiveHint means nothing while readOnlyHint is true (MCP spec).
  const readOnlyBoth = effective(b, "readOnlyHint") && effective(a, "readOnlyHint");
  const keys = [...new Set([...jsonKeys(b), ...jsonKeys(a)])].sort();
  for (const key of keys) {
    const bv = own(b, key);
    const av2 = own(a, key);
    if (jsonEqual(bv, av2)) continue;
    const p = joinPointer(base, key);
    const hint = Object.hasOwn(DEFAULTS, key) ? (key as Hint) : undefined;
    const ev = hint && effective(b, hint);
    const av = hint && effective(a, hint);
    if (!hint || ev === av || (hint === "destructiveHint" && readOnlyBoth)) {
      sink.add("tool-annotation-changed", p, `${key} ${brief(bv)} → ${brief(av2)}${hint && ev === av ? " (same effective value)" : ""}`);
    } else if (av === RISKY[hint]) {
      sink.add("tool-annotation-escalated", p, `${key} ${ev} → ${av}: ${EXPLAIN[hint][0]}`, { security: "high" });
    } else {
      sink.add("tool-annotation-safety-claimed", p, `${key} ${ev} → ${av}: ${EXPLAIN[hint][1]}`, { security: "medium" });
    }
  }
}
