import type { ToolLike } from "@/lib/diff";

export type { ToolLike } from "@/lib/diff";

export type Severity = "critical" | "high" | "medium" | "low" | "info";
export const SEVERITY_RANK: Record<Severity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };
export const SEVERITIES: readonly Severity[] = ["critical", "high", "medium", "low", "info"];

export const atLeast = (s: Severity, floor: Severity) => SEVERITY_RANK[s] >= SEVERITY_RANK[floor];
export const maxSeverity = (a: Severity, b: Severity): Severity => (SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b);

/** detection-rules §1: A hidden content, B instructions to the agent, C data access, D cross-tool, E schema, F history; G the learned scorer. */
export type Family = "A" | "B" | "C" | "D" | "E" | "F" | "G";

export type AuditRuleId =
  | "R1" | "R2" | "R3" | "R4" | "R5" | "R6" | "R7" | "R8" | "R9" | "R10" | "R11"
  | "R12" | "R13" | "R14" | "R15" | "R16" | "R17" | "R18" | "R19" | "R20" | "R21"
  | "R22" | "R23" | "R24" | "R25" | "R26" | "R27" | "R28" | "R29" | "R30" | "R31" | "R32" | "R33" | "R34" | "R35";

/** Which kind of model-visible string a pointer addresses. */
export type StringField =
  | "name"
  | "title"
  | "description"
  | "annotation"
  | "instructions"
  | "schema-title"
  | "schema-description"
  | "enum"
  | "default"
  | "examples"
  | "const"
  | "property-name"
  | "required"
  | "schema-keyword"
  | "meta"
  /** A resource's uri or a resource template's uriTemplate. */
  | "uri";

/** The schema fields that hold values rather than describe them: one set for every rule that asks. */
export const VALUE_FIELDS: ReadonlySet<StringField> = new Set<StringField>(["enum", "default", "examples", "const"]);

export type ExtractedString = {
  /** RFC 6901 pointer from the tool's root; for a property name, the pointer of that property's schema. */
  pointer: string;
  field: StringField;
  text: string;
};

export type Evidence = {
  /** The matched snippet of the raw string, hidden characters made visible (⟦…⟧ markers, tag characters decoded). */
  text: string;
  /** UTF-16 offsets of the match in the raw string at `pointer` (0/0 for findings about structure, not text). */
  start: number;
  end: number;
};

export type AuditFinding = {
  ruleId: AuditRuleId;
  family: Family;
  severity: Severity;
  /** The tool the finding is about; null for server instructions and list-level findings (R32). */
  toolName: string | null;
  pointer: string;
  field?: StringField;
  evidence: Evidence;
  /** One line. Contains untrusted text: escape before printing to a terminal (the renderers do). */
  message: string;
  /** What a hidden or encoded payload says: Unicode tag characters, variation selectors, base64, hex. */
  decoded?: string;
  /**
   * Lowered to low: the match sat inside quotes or example framing ("detects prompts such as '…'"),
   * or (with `vetoedBy`) the learned scorer rated the item benign.
   */
  discounted?: true;
  /** Why a finding was discounted when not for framing: the learned scorer's (R35) probability for its item, below the veto threshold. */
  vetoedBy?: { ruleId: "R35"; p: number };
  /** Set when the finding is about a prompt, resource or resource template rather than a tool (toolName then holds its name). */
  item?: { kind: ItemKind; name: string };
  /** Repository path of the page that explains the rule, with an example (docs/rules/<ruleId>.md). */
  docs?: string;
};

/** What a finding is about: tools/list, prompts/list, resources/list, resources/templates/list entries. */
export type ItemKind = "tool" | "prompt" | "resource" | "resourceTemplate";

/** A prompts/list entry as served (MCP 2025-06-18 Prompt). */
export type PromptLike = {
  name: string;
  title?: unknown;
  description?: unknown;
  arguments?: unknown;
  [key: string]: unknown;
};

/** A resources/list entry (Resource) or resources/templates/list entry (ResourceTemplate) as served. */
export type ResourceLike = {
  name?: unknown;
  title?: unknown;
  uri?: unknown;
  uriTemplate?: unknown;
  description?: unknown;
  mimeType?: unknown;
  [key: string]: unknown;
};

export type OtherServer = { serverName: string; tools: readonly ToolLike[] };

export type ScanOptions = {
  /** The team's other servers, for shadowing (R19) and collisions (R21). */
  otherServers?: readonly OtherServer[];
  /** Server instructions (initialize / server/discover): scanned like a description. */
  instructions?: string | null;
  /** prompts/list entries: name, title, description and each argument's name, title and description are scanned. */
  prompts?: readonly PromptLike[];
  /** resources/list entries: name, title, description, uri and mimeType are scanned. */
  resources?: readonly ResourceLike[];
  /** Add the learned scorer's verdict (R35) per item; false gives the rules alone (its training reads them so). */
  learned?: boolean;
  /** resources/templates/list entries: as resources, with uriTemplate for uri. */
  resourceTemplates?: readonly ResourceLike[];
};

export type ChangeInput = {
  before: readonly ToolLike[] | null;
  after: readonly ToolLike[];
  /** The change arrived with notifications/tools/list_changed. */
  notified: boolean;
  /** serverInfo.version differs from the previous snapshot. */
  serverVersionChanged: boolean;
  /** Tool counts of the previous snapshots, oldest first (R32). Defaults to [before.length]. */
  previousCounts?: readonly number[];
};

export type CueClass =
  | "url"
  | "agent-instruction"
  | "concealment"
  | "tool-reference"
  | "sensitive-path"
  | "exfiltration"
  | "hidden-content"
  | "secret"
  | "schema-poisoning"
  | "override"
  | "language-switch";

export type ChangeClassification = {
  kind: "benign-description" | "needs-review";
  cueClassesAdded: CueClass[];
  reasons: string[];
};
