// Diff of what a server offers besides tools: prompts, resources, resource templates, instructions.
// Pure. Items are matched by kind and name; levels mirror the tool rules (rules.ts): narrowing what a
// caller may send is ERR (a new required prompt argument), a moved resource is WARN (URI or MIME
// type: readers may no longer find or parse it), wording is INFO, and instructions — model-visible
// text that steers the agent — change at WARN with a word diff.
import { fieldChanges } from "./field-changes";
import { highestLevel, LEVEL_RANK, type Level } from "./rules";
import type { FieldChange } from "./types";
import { diffText } from "./word-diff";

export const SURFACE_RULES = {
  "prompt-added": "INFO",
  "prompt-removed": "ERR", // like tool-removed: callers of prompts/get by this name break
  "prompt-required-argument-added": "ERR", // like new-required-request-property
  "prompt-argument-became-required": "ERR",
  "prompt-argument-removed": "WARN", // like request-property-removed
  "prompt-optional-argument-added": "INFO",
  "prompt-description-changed": "INFO", // like tool-description-changed (the scanner judges the text)
  "prompt-field-changed": "INFO",
  "resource-added": "INFO",
  "resource-removed": "WARN", // resource lists are often dynamic (files); a reader may still fail
  "resource-uri-changed": "WARN",
  "resource-mime-type-changed": "WARN",
  "resource-description-changed": "INFO",
  "resource-field-changed": "INFO",
  "template-added": "INFO",
  "template-removed": "WARN",
  "template-uri-changed": "WARN",
  "template-mime-type-changed": "WARN",
  "template-description-changed": "INFO",
  "template-field-changed": "INFO",
  "instructions-added": "WARN", // new steering text for the agent
  "instructions-removed": "INFO",
  "instructions-changed": "WARN",
} as const satisfies Record<string, Level>;

export type SurfaceRuleId = keyof typeof SURFACE_RULES;
type Kind = "prompt" | "resource" | "resource_template" | "instructions";
type Item = { kind: Kind | string; name: string; definition: Record<string, unknown> };

export type SurfaceFinding = { ruleId: SurfaceRuleId; level: Level; pointer: string; message: string };

export type SurfaceItemChange = {
  kind: Kind;
  name: string;
  change: "added" | "removed" | "changed";
  highest: Level | null;
  findings: SurfaceFinding[];
  /** For changed items: every changed field (description and title with a word diff). */
  fields: FieldChange[];
  /** Instructions: the word diff of the whole text. */
  words?: ReturnType<typeof diffText>;
  /** Added and removed items: the whole definition as the server sent it (the last one, if removed). */
  definition?: Record<string, unknown>;
};

export type SurfaceDiffSummary = {
  added: number;
  removed: number;
  changed: number;
  highest: Level | null;
  /** Per kind: counts of added, removed and changed items. */
  byKind: Partial<Record<Kind, { added: number; removed: number; changed: number }>>;
  /** The changes themselves, names and levels only (at most 50), for the timeline. */
  items: Array<{ kind: Kind; name: string; change: SurfaceItemChange["change"]; highest: Level | null }>;
};

const PREFIX: Record<Exclude<Kind, "instructions">, "prompt" | "resource" | "template"> = { prompt: "prompt", resource: "resource", resource_template: "template" };
const KINDS = new Set<string>(["prompt", "resource", "resource_template", "instructions"]);

/** Every change between two surfaces (items in server order; duplicate names: the first one counts). */
export function diffSurface(before: readonly Item[], after: readonly Item[]): SurfaceItemChange[] {
  const key = (i: Item) => `${i.kind}\u0000${i.name}`;
  const index = (items: readonly Item[]) => {
    const map = new Map<string, Item>();
    for (const i of items) if (KINDS.has(i.kind) && !map.has(key(i))) map.set(key(i), i);
    return map;
  };
  const was = index(before);
  const now = index(after);
  const out: SurfaceItemChange[] = [];
  for (const [k, item] of now) {
    const old = was.get(k);
    if (!old) out.push(single(item, "added"));
    else {
      const changed = diffItem(old, item);
      if (changed) out.push(changed);
    }
  }
  for (const [k, item] of was) if (!now.has(k)) out.push(single(item, "removed"));
  return out;
}

export function summarizeSurface(changes: readonly SurfaceItemChange[]): SurfaceDiffSummary {
  const byKind: SurfaceDiffSummary["byKind"] = {};
  const summary = { added: 0, removed: 0, changed: 0 };
  for (const c of changes) {
    const counts = (byKind[c.kind] ??= { added: 0, removed: 0, changed: 0 });
    counts[c.change]++;
    summary[c.change]++;
  }
  const ranked = [...changes].sort((a, b) => rank(b.highest) - rank(a.highest));
  return {
    ...summary,
    highest: highestLevel(changes.flatMap((c) => (c.highest ? [c.highest] : []))),
    byKind,
    items: ranked.slice(0, 50).map((c) => ({ kind: c.kind, name: c.name, change: c.change, highest: c.highest })),
  };
}

const rank = (l: Level | null) => (l ? LEVEL_RANK[l] : 0);

function finding(ruleId: SurfaceRuleId, pointer: string, message: string): SurfaceFinding {
  return { ruleId, level: SURFACE_RULES[ruleId], pointer, message };
}

function single(item: Item, change: "added" | "removed"): SurfaceItemChange {
  const kind = item.kind as Kind;
  const rule = (kind === "instructions" ? `instructions-${change}` : `${PREFIX[kind]}-${change}`) as SurfaceRuleId;
  const what = kind === "instructions" ? "server instructions" : `${PREFIX[kind]} ${JSON.stringify(item.name)}`;
  const f = finding(rule, "", `${what} ${change === "added" ? "added" : "removed"}`);
  return { kind, name: item.name, change, highest: f.level, findings: [f], fields: [], definition: item.definition };
}

function diffItem(old: Item, now: Item): SurfaceItemChange | null {
  const kind = now.kind as Kind;
  const fields = fieldChanges(old.definition, now.definition);
  if (fields.length === 0) return null;
  const findings: SurfaceFinding[] = [];
  let words: SurfaceItemChange["words"];
  if (kind === "instructions") {
    words = diffText(String(old.definition.text ?? ""), String(now.definition.text ?? ""));
    findings.push(finding("instructions-changed", "/text", "server instructions changed"));
  } else if (kind === "prompt") findings.push(...promptFindings(old.definition, now.definition, fields));
  else findings.push(...resourceFindings(PREFIX[kind] as "resource" | "template", fields));
  return { kind, name: now.name, change: "changed", highest: highestLevel(findings.map((f) => f.level)), findings, fields, ...(words ? { words } : {}) };
}

type Arg = { name?: unknown; required?: unknown };

function promptFindings(before: Record<string, unknown>, after: Record<string, unknown>, fields: FieldChange[]): SurfaceFinding[] {
  const args = (d: Record<string, unknown>) => new Map((Array.isArray(d.arguments) ? (d.arguments as Arg[]) : []).filter((a) => typeof a?.name === "string").map((a) => [a.name as string, a.required === true]));
  const was = args(before);
  const now = args(after);
  const out: SurfaceFinding[] = [];
  for (const [name, required] of now) {
    const had = was.get(name);
    if (had === undefined) out.push(required ? finding("prompt-required-argument-added", "/arguments", `new required argument ${JSON.stringify(name)}`) : finding("prompt-optional-argument-added", "/arguments", `new optional argument ${JSON.stringify(name)}`));
    else if (required && !had) out.push(finding("prompt-argument-became-required", "/arguments", `argument ${JSON.stringify(name)} became required`));
  }
  for (const name of was.keys()) if (!now.has(name)) out.push(finding("prompt-argument-removed", "/arguments", `argument ${JSON.stringify(name)} removed`));
  for (const f of fields) {
    if (f.pointer.startsWith("/arguments")) {
      if (/\/(description|title)$/.test(f.pointer)) out.push(finding("prompt-description-changed", f.pointer, `argument text changed at ${f.pointer}`));
      continue; // membership and required-ness are judged above
    }
    if (f.pointer === "/description" || f.pointer === "/title") out.push(finding("prompt-description-changed", f.pointer, `${f.pointer.slice(1)} changed`));
    else out.push(finding("prompt-field-changed", f.pointer, `${f.pointer} changed`));
  }
  return out;
}

function resourceFindings(prefix: "resource" | "template", fields: FieldChange[]): SurfaceFinding[] {
  return fields.map((f) => {
    if (f.pointer === "/uri" || f.pointer === "/uriTemplate") return finding(`${prefix}-uri-changed`, f.pointer, `${f.pointer.slice(1)} changed`);
    if (f.pointer === "/mimeType") return finding(`${prefix}-mime-type-changed`, f.pointer, "MIME type changed");
    if (f.pointer === "/description" || f.pointer === "/title") return finding(`${prefix}-description-changed`, f.pointer, `${f.pointer.slice(1)} changed`);
    return finding(`${prefix}-field-changed`, f.pointer, `${f.pointer} changed`);
  });
}
