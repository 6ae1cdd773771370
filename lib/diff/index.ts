// The diff engine: pure, no I/O. See docs/detection-rules.md §2 for the rules it applies.
export { diffToolLists, DEFAULT_MAX_RENAME_PAIRS, DEFAULT_RENAME_THRESHOLD } from "./diff-tool-lists";
export { diffTool } from "./diff-tool";
export { diffText } from "./word-diff";
export { renderDiffText, renderWords, visibleText } from "./render-text";
export { highestLevel, levelOf, LEVEL_RANK, RULE_IDS, RULES } from "./rules";
export type * from "./types";
export { diffSurface, summarizeSurface, SURFACE_RULES, type SurfaceItemChange, type SurfaceDiffSummary, type SurfaceFinding, type SurfaceRuleId } from "./diff-surface";
