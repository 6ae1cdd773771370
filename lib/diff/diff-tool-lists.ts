import { diffTool } from "./diff-tool";
import { FindingSink } from "./findings";
import { jsonEqual } from "./json";
import { detectRenames, keyTools, type Keyed } from "./match-tools";
import { highestLevel, type Level } from "./rules";
import type { DiffOptions, ToolAdded, ToolChanged, ToolLike, ToolListDiff, ToolRemoved } from "./types";

export const DEFAULT_RENAME_THRESHOLD = 0.8;
export const DEFAULT_MAX_RENAME_PAIRS = 100_000;

/**
 * What changed between two tool lists: tools keyed by name, added / removed / changed, renames
 * detected by body similarity (reported as a change of the old tool), every change classified.
 * Pure: no I/O, inputs untouched. Linear in the list sizes apart from rename scoring, which only
 * looks at unmatched tools and is bounded by `maxRenamePairs`.
 */
export function diffToolLists(before: readonly ToolLike[], after: readonly ToolLike[], options: DiffOptions = {}): ToolListDiff {
  const levels = options.levels;
  const bk = keyTools(before);
  const ak = keyTools(after);
  const afterByKey = new Map(ak.map((k) => [k.key, k]));
  const beforeKeys = new Set(bk.map((k) => k.key));

  const changed: ToolChanged[] = [];
  const gone: Keyed[] = [];
  let unchanged = 0;
  for (const b of bk) {
    const a = afterByKey.get(b.key);
    if (!a) gone.push(b);
    else if (jsonEqual(b.tool, a.tool)) unchanged++;
    else changed.push(withOccurrence(diffTool(b.tool, a.tool, levels), b));
  }
  const fresh = ak.filter((a) => !beforeKeys.has(a.key));

  const { pairs, search } = detectRenames(gone, fresh, {
    threshold: options.renameThreshold ?? DEFAULT_RENAME_THRESHOLD,
    maxPairs: options.maxRenamePairs ?? DEFAULT_MAX_RENAME_PAIRS,
  });
  const renamedFrom = new Set(pairs.map((p) => p.removed));
  const renamedTo = new Set(pairs.map((p) => p.added));
  for (const p of pairs) {
    const rename = { from: p.removed.name, to: p.added.name, similarity: p.similarity };
    changed.push(withOccurrence(diffTool(p.removed.tool, p.added.tool, levels, rename), p.removed));
  }

  const added: ToolAdded[] = fresh
    .filter((k) => !renamedTo.has(k))
    .map((k) => withOccurrence({ name: k.name, tool: k.tool, findings: single(levels, "tool-added", "new tool: review its description and schema before agents use it") }, k));
  const removed: ToolRemoved[] = gone
    .filter((k) => !renamedFrom.has(k))
    .map((k) => withOccurrence({ name: k.name, tool: k.tool, findings: single(levels, "tool-removed", "tool removed: calls to it fail") }, k));

  byName(added);
  byName(removed);
  byName(changed);
  const renamed = changed.flatMap((c) => (c.rename ? [c.rename] : []));
  const orderOnly = !added.length && !removed.length && !changed.length && bk.some((k, i) => k.key !== ak[i]?.key);

  const counts: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const entry of [...added, ...removed, ...changed]) for (const f of entry.findings) counts[f.level]++;
  return {
    version: 1,
    added,
    removed,
    changed,
    renamed,
    orderOnly,
    renameSearch: search,
    summary: {
      added: added.length,
      removed: removed.length,
      changed: changed.length,
      renamed: renamed.length,
      unchanged,
      highest: highestLevel((Object.keys(counts) as Level[]).filter((l) => counts[l] > 0)),
      levels: counts,
    },
  };
}

function single(levels: DiffOptions["levels"], ruleId: "tool-added" | "tool-removed", message: string) {
  const sink = new FindingSink(levels);
  sink.add(ruleId, "", message);
  return sink.list;
}

function withOccurrence<T extends { name: string; occurrence?: number }>(entry: T, k: Keyed): T {
  if (k.occurrence > 1) entry.occurrence = k.occurrence;
  return entry;
}

function byName<T extends { name: string; occurrence?: number }>(list: T[]): void {
  list.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : (x.occurrence ?? 1) - (y.occurrence ?? 1)));
}
