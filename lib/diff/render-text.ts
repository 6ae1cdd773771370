import { revealHidden } from "@/lib/text/reveal-hidden";
import type { FieldChange, Finding, Segment, ToolChanged, ToolListDiff } from "./types";

/**
 * Untrusted text for a terminal, on one line: hidden characters become visible ⟦markers⟧ (tag
 * characters decoded), control codes never reach the TTY, newlines and tabs show as ↵ and ⇥.
 */
export function visibleText(text: string): string {
  return revealHidden(text)
    .map((s) => (s.kind === "text" ? s.text.replace(/\r?\n/g, "↵").replace(/\t/g, "⇥") : `⟦${s.label}${s.decoded ? `: "${s.decoded}"` : ""}⟧`))
    .join("");
}

/** Long unchanged stretches keep their ends; changes are always shown in full. */
const KEEP = 30;

/** A word diff as `same [-removed-]{+added+} same`, escaped for a terminal. */
export function renderWords(segments: readonly Segment[]): string {
  const last = segments.length - 1;
  return segments
    .map((s, i) => {
      if (s.op === "delete") return `[-${visibleText(s.text)}-]`;
      if (s.op === "insert") return `{+${visibleText(s.text)}+}`;
      const chars = Array.from(s.text);
      if (chars.length <= 2 * KEEP + 3) return visibleText(s.text);
      const head = visibleText(chars.slice(0, KEEP).join(""));
      const tail = visibleText(chars.slice(-KEEP).join(""));
      if (i === 0) return `…${tail}`;
      if (i === last) return `${head}…`;
      return `${head} … ${tail}`;
    })
    .join("");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const MAX_FIELDS = 10;

/** Compact human rendering of a diff (the CLI's default output). */
export function renderDiffText(diff: ToolListDiff): string {
  const s = diff.summary;
  const lines: string[] = [];
  const parts = [
    `${s.changed} changed${s.renamed ? ` (${s.renamed} renamed)` : ""}`,
    `${s.added} added`,
    `${s.removed} removed`,
    `${s.unchanged} unchanged`,
  ];
  lines.push(`${parts.join(", ")} — highest ${s.highest ?? "none"} (ERR ${s.levels.ERR} · WARN ${s.levels.WARN} · INFO ${s.levels.INFO})`);
  if (diff.orderOnly) lines.push("same tools, same definitions: only the order changed");
  if (diff.renameSearch === "bucketed") lines.push("note: too many unmatched tools to score every pair; renames were searched among tools with the same argument names");

  for (const c of diff.changed) {
    const title = c.rename ? `${visibleText(c.rename.from)} → ${visibleText(c.rename.to)}` : visibleText(c.name);
    const tag = c.rename ? `  (renamed, similarity ${c.rename.similarity.toFixed(2)})` : "";
    lines.push("", `~ ${title}${occurrence(c.occurrence)}  [${c.highest ?? "no rule"}]${tag}`);
    const words = new Map(c.fields.filter((f) => f.words).map((f) => [f.pointer, f.words!]));
    for (const f of c.findings) lines.push(...renderFinding(f, words.get(f.pointer)));
    lines.push(...unclassified(c));
  }
  for (const a of diff.added) {
    lines.push("", `+ ${visibleText(a.name)}${occurrence(a.occurrence)}  [${a.findings[0]?.level ?? "INFO"}]`);
    if (typeof a.tool.description === "string") lines.push(`    ${clip(visibleText(a.tool.description), 140)}`);
  }
  for (const r of diff.removed) lines.push("", `- ${visibleText(r.name)}${occurrence(r.occurrence)}  [${r.findings[0]?.level ?? "ERR"}]`);
  if (!diff.changed.length && !diff.added.length && !diff.removed.length && !diff.orderOnly) lines.push("no changes");
  return lines.join("\n");
}

function renderFinding(f: Finding, words: Segment[] | undefined): string[] {
  const where = f.pointer || "(tool)";
  const extra = [f.via ? `via ${f.via}` : "", f.security ? `security ${f.security}` : ""].filter(Boolean).join(", ");
  const out = [`    ${f.level.padEnd(4)} ${f.ruleId}  ${visibleText(where)}${extra ? `  (${visibleText(extra)})` : ""}`, `         ${visibleText(f.message)}`];
  if (words) out.push(`         ${renderWords(words)}`);
  return out;
}

/** Field changes that no finding points at or under (e.g. an unreferenced $defs entry, an icon). */
function unclassified(c: ToolChanged): string[] {
  const covered = (f: FieldChange) => {
    // A change to a `required` list is explained by the findings about that node's properties.
    const node = f.pointer.replace(/\/required(\/\d+)?$/, "");
    const scope = node !== f.pointer ? `${node}/` : undefined;
    return c.findings.some((x) => x.pointer !== "" && (f.pointer === x.pointer || f.pointer.startsWith(`${x.pointer}/`) || (scope && x.pointer.startsWith(scope))));
  };
  const rest = c.fields.filter((f) => !covered(f));
  if (!rest.length) return [];
  const shown = rest.slice(0, MAX_FIELDS).map((f) => `    ·    ${f.op} ${visibleText(f.pointer)}${f.words ? `: ${renderWords(f.words)}` : ""}`);
  if (rest.length > MAX_FIELDS) shown.push(`    ·    … and ${plural(rest.length - MAX_FIELDS, "more field")}`);
  return shown;
}

const occurrence = (n: number | undefined) => (n ? ` (copy ${n} of a repeated name)` : "");
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
