import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";

export const KIND_LABELS: Record<AlertKindName, string> = {
  tool_changed: "Tool changed",
  tool_added: "New tool",
  tool_removed: "Tool removed",
  suspicious_content: "Suspicious content",
  breaking_change: "Breaking change",
  name_collision: "Name collision",
  server_down: "Server down",
  server_recovered: "Server recovered",
  list_collapsed: "List collapsed",
  cache_divergence: "Public list diverges (R31)",
  identity_divergence: "Differs by client identity",
  auth_required: "Sign-in required (OAuth)",
  context_budget: "Over the context budget",
};

export const STATUS_LABELS: Record<AlertStatusName, string> = { open: "Open", acknowledged: "Acknowledged", resolved: "Resolved" };

export const SEVERITY_LABELS: Record<Severity, string> = { critical: "Critical", high: "High", medium: "Medium", low: "Low", info: "Info" };

export const RESOLUTION_LABELS: Record<string, string> = {
  approved: "approved by a reviewer",
  auto_accepted: "auto-accepted (a benign wording change)",
  recovered: "the server recovered",
  superseded: "superseded (the tool went back to its baseline or a newer state replaced it)",
  dismissed: "dismissed",
  reauthorized: "an admin authorized the server again",
  within_budget: "the team's tool lists fit the context budget again (or the budget was turned off)",
};

export const kindLabel = (kind: string) => KIND_LABELS[kind as AlertKindName] ?? kind;
export const resolutionLabel = (resolution: string | null) => (resolution ? (RESOLUTION_LABELS[resolution] ?? resolution) : "resolved");

/** A tool version hash ("jcs-sha256:3f2a…") as people compare it: the first 12 hex digits. */
export const shortHash = (hash: string | null | undefined) => (hash ? hash.slice(hash.lastIndexOf(":") + 1).slice(0, 12) : "—");

export const BASELINE_SOURCES: Record<string, string> = {
  first_seen: "the first version seen, pinned",
  auto_accepted: "a wording-only change, auto-accepted",
  approved: "approved",
};
