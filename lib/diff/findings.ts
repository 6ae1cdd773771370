import { LEVEL_RANK, levelOf, type LevelOverrides, type RuleId } from "./rules";
import type { Finding } from "./types";

/** Collects findings for one tool: levels from the catalogue (or overrides), one finding per rule and pointer. */
export class FindingSink {
  private readonly seen = new Set<string>();
  readonly list: Finding[] = [];

  constructor(private readonly overrides?: LevelOverrides) {}

  add(ruleId: RuleId, pointer: string, message: string, extra?: Pick<Finding, "via" | "security">): void {
    const key = `${ruleId}\u0000${pointer}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const finding: Finding = { ruleId, level: levelOf(ruleId, this.overrides), pointer, message };
    if (extra?.via) finding.via = extra.via;
    if (extra?.security) finding.security = extra.security;
    this.list.push(finding);
  }

  /** Most severe first, then by pointer and rule: stable whatever order the schemas were walked in. */
  sorted(): Finding[] {
    return [...this.list].sort(compareFindings);
  }
}

export function compareFindings(a: Finding, b: Finding): number {
  return LEVEL_RANK[b.level] - LEVEL_RANK[a.level] || cmp(a.pointer, b.pointer) || cmp(a.ruleId, b.ruleId);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
