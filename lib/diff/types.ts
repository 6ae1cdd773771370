import type { Level, LevelOverrides, RuleId } from "./rules";

export type { Level, LevelOverrides, RuleId } from "./rules";

/**
 * An MCP Tool as listed by tools/list. Only `name` is relied on; every other field (title,
 * description, inputSchema, outputSchema, annotations, _meta, icons, execution, and fields a later
 * protocol adds) is compared as JSON.
 */
export type ToolLike = { name: string } & Record<string, unknown>;

/** One run of a word-level text diff. Concatenating equal+delete gives the old text, equal+insert the new. */
export type Segment = { op: "equal" | "insert" | "delete"; text: string };

/** A changed JSON value inside one tool, addressed by an RFC 6901 pointer from the tool's root. */
export type FieldChange = {
  pointer: string;
  op: "add" | "remove" | "replace";
  before?: unknown;
  after?: unknown;
  /** Word-level diff, for `description` and `title` strings at any depth. */
  words?: Segment[];
};

export type Finding = {
  ruleId: RuleId;
  level: Level;
  /**
   * Where the change is, as an RFC 6901 pointer into the tool: into the new version, or into the
   * old one for something that no longer exists. Changes reached through a local `$ref` point at
   * the referenced definition (e.g. /inputSchema/$defs/Options/properties/mode/enum).
   */
  pointer: string;
  /** One-line explanation. Contains untrusted names: escape before printing to a terminal. */
  message: string;
  /** For changes inside a `$ref` target: the first place that referenced it. */
  via?: string;
  /** Security severity (detection-rules R27), a separate axis from the compatibility level. */
  security?: "high" | "medium";
};

/** `occurrence` is present (2, 3, …) only for the repeated copies of a name listed more than once. */
export type ToolAdded = { name: string; occurrence?: number; tool: ToolLike; findings: Finding[] };
export type ToolRemoved = { name: string; occurrence?: number; tool: ToolLike; findings: Finding[] };

export type ToolRename = { from: string; to: string; similarity: number };

export type ToolChanged = {
  /** The old name; a renamed tool is reported as a change of the old tool. */
  name: string;
  occurrence?: number;
  rename?: ToolRename;
  highest: Level | null;
  fields: FieldChange[];
  findings: Finding[];
};

export type DiffSummary = {
  added: number;
  removed: number;
  /** Every entry of `changed`, renames included. */
  changed: number;
  renamed: number;
  unchanged: number;
  highest: Level | null;
  /** Findings per level, over added, removed and changed tools. */
  levels: Record<Level, number>;
};

export type ToolListDiff = {
  /** Bumped on any incompatible change to this shape (the CLI's --json and the REST API). */
  version: 1;
  added: ToolAdded[];
  removed: ToolRemoved[];
  changed: ToolChanged[];
  /** Index of the renames also reported in `changed`. */
  renamed: ToolRename[];
  /** Same tools, same definitions, different order. */
  orderOnly: boolean;
  /**
   * "full": every unmatched pair was scored; "bucketed": too many pairs, only tools sharing their
   * input property names were; exact body matches are always found.
   */
  renameSearch: "full" | "bucketed";
  summary: DiffSummary;
};

export type DiffOptions = {
  /** Per-rule level overrides, as oasdiff allows. */
  levels?: LevelOverrides;
  /** Body similarity (0..1) at or above which a removed and an added tool count as a rename. Default 0.8. */
  renameThreshold?: number;
  /** Most removed×added pairs scored for rename detection. Default 100,000 (about 0.5 s in the worst case, where every pair looks alike). */
  maxRenamePairs?: number;
};
