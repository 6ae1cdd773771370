import { scanTools } from "@/lib/detection/scan-tools";
import type { AuditFinding, Severity } from "@/lib/detection/types";
import { diffToolLists } from "@/lib/diff/diff-tool-lists";
import type { ToolLike, ToolListDiff } from "@/lib/diff/types";
import { hashTool, hashToolList } from "@/lib/hash/canonical-hash";

// Pure: what one server shows another client next to what it shows Toolwatch. No I/O.

/** Content hash of a list, order-insensitive: comparable with a snapshot's contentHash. */
export const listHashOf = (tools: readonly ToolLike[]): string => hashToolList(tools.map((tool) => ({ name: tool.name, hash: hashTool(tool) })));

export type IdentityComparison = {
  same: boolean;
  referenceHash: string;
  variantHash: string;
  /** reference (what Toolwatch sees) → variant (what the agent sees); null when the lists agree. */
  diff: ToolListDiff | null;
  /** Scanner findings in the agent-facing list with no counterpart in the Toolwatch-facing one. */
  hiddenFindings: AuditFinding[];
  severity: Extract<Severity, "critical" | "high">;
};

/** A finding's identity across the two lists: same tool, rule, place and matched text. */
const findingKey = (f: AuditFinding) => `${f.toolName ?? ""}\u0000${f.ruleId}\u0000${f.pointer}\u0000${f.evidence.text}`;

/**
 * Compares the list a server gave Toolwatch's identity with the one it gave another client's.
 * Severity is critical when the agent-facing variant carries scanner findings (above info) the
 * Toolwatch-facing list lacks — a payload shown only to agents — and high for any other difference.
 */
export function compareIdentityLists(reference: readonly ToolLike[], variant: readonly ToolLike[], referenceHash = listHashOf(reference)): IdentityComparison {
  const variantHash = listHashOf(variant);
  if (variantHash === referenceHash) return { same: true, referenceHash, variantHash, diff: null, hiddenFindings: [], severity: "high" };
  const seen = new Set(scanTools(reference).map(findingKey));
  const hiddenFindings = scanTools(variant).filter((f) => f.severity !== "info" && !seen.has(findingKey(f)));
  return {
    same: false,
    referenceHash,
    variantHash,
    diff: diffToolLists(reference, variant),
    hiddenFindings,
    severity: hiddenFindings.length > 0 ? "critical" : "high",
  };
}
