// Isomorphic: what the API returns about identity probes and what an identity_divergence alert
// carries. Tool names and descriptions are untrusted server text: render them as text, never HTML.
import type { AuditFinding, Severity } from "@/lib/detection/types";
import type { ToolLike, ToolListDiff } from "@/lib/diff/types";

export type ProbeOutcome = "same" | "differs" | "error";

/** One identity whose list differed from Toolwatch's: both lists and the diff between them. */
export type IdentityVariant = {
  identity: string;
  label: string;
  clientInfo: { name: string; version: string };
  probedAt: string;
  referenceHash: string;
  variantHash: string;
  /** What Toolwatch's own identity saw (the comparison's left side). */
  reference: ToolLike[];
  /** What the server showed this client. */
  tools: ToolLike[];
  /** reference → tools. */
  diff: ToolListDiff;
  /** Scanner findings only the agent-facing list has. */
  hiddenFindings: AuditFinding[];
  severity: Severity;
};

export type IdentityDivergence = { variants: IdentityVariant[] };

export type IdentityProbeRow = {
  identity: string;
  label: string;
  clientInfo: { name: string; version: string };
  probedAt: string;
  outcome: ProbeOutcome;
  toolCount: number | null;
  listHash: string | null;
  referenceHash: string | null;
  error: { code: string; message: string } | null;
};

export type IdentityProbeState = {
  settings: {
    team: { enabled: boolean; identities: string[]; intervalMinutes: number | null; probeStdio: boolean };
    server: { enabled: boolean | null; identities: string[] | null };
    effective: { enabled: boolean; reason: string; identities: { key: string; label: string; clientInfo: { name: string; version: string } }[]; intervalMinutes: number };
  };
  probes: IdentityProbeRow[];
  /** The open identity_divergence alert, if any. */
  alertId: string | null;
};
