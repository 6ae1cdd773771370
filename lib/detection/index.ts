// The audit engine: pure, offline detection of tool poisoning and rug pulls
// (docs/detection-rules.md §1). No I/O; safe to run on every snapshot.
export { AUDIT_RULES, RULE_BY_ID, type RuleInfo } from "./catalog";
export { extractToolStrings } from "./extract";
export { normalizeText, rawSpan, expandIdentifier, type NormalizedText } from "./normalize";
export { scanTools } from "./scan-tools";
export { scanChange, classifyChange } from "./history";
export { aggregateSeverity, overallSeverity, SEVERITY_WEIGHT, type Aggregate } from "./severity";
export { buildAuditReport, type AuditReport, type ToolVerdict } from "./report";
export { renderAuditText, type RenderOptions } from "./render-text";
export { toSarif, stableHash, SARIF_LEVEL, SECURITY_SEVERITY, type SarifOptions } from "./sarif";
export * from "./types";
