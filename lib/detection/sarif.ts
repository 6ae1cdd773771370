// SARIF 2.1.0 for code scanning in CI. One run, driver "toolwatch", every catalogued rule with its
// default level and a GitHub-style security-severity; one result per finding, located in the
// scanned file (physical) and at tool/pointer (logical), with a partial fingerprint so a finding
// keeps its identity across runs and the evidence's position in the file can move.
import { AUDIT_RULES } from "./catalog";
import type { AuditReport } from "./report";
import type { AuditFinding, Severity } from "./types";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

export type SarifLevel = "error" | "warning" | "note";
export const SARIF_LEVEL: Record<Severity, SarifLevel> = { critical: "error", high: "error", medium: "warning", low: "note", info: "note" };
/** GitHub buckets: ≥9 critical, 7–8.9 high, 4–6.9 medium, 0.1–3.9 low. */
export const SECURITY_SEVERITY: Record<Severity, string> = { critical: "9.5", high: "8.0", medium: "5.5", low: "3.0", info: "1.0" };

export type SarifOptions = {
  /** The scanned file, as given (relative paths stay relative to the checkout). */
  artifactUri: string;
  informationUri?: string;
  toolVersion?: string;
  /** Line (1-based) of a finding in the scanned file, when the caller can tell. */
  locate?: (finding: AuditFinding) => number | undefined;
};

/** cyrb53: a fast, well-mixed 53-bit string hash (pure JS, same result in Node and browsers). */
export function stableHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

export function toSarif(report: AuditReport, options: SarifOptions) {
  const rules = AUDIT_RULES.map((r) => ({
    id: r.id,
    name: r.name,
    shortDescription: { text: `${r.id} ${r.name.replace(/-/g, " ")}` },
    fullDescription: { text: r.summary },
    help: { text: `${r.summary} See docs/detection-rules.md §1 (family ${r.family}).` },
    defaultConfiguration: { level: SARIF_LEVEL[r.severity], enabled: r.implemented },
    properties: { "security-severity": SECURITY_SEVERITY[r.severity], tags: ["security", "mcp", "tool-poisoning", `family-${r.family}`], precision: "medium" },
  }));
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const results = report.tools.flatMap((t) => t.findings).map((f) => {
    const line = options.locate?.(f);
    const where = f.toolName ?? "(server)";
    return {
      ruleId: f.ruleId,
      ruleIndex: ruleIndex.get(f.ruleId),
      level: SARIF_LEVEL[f.severity],
      message: { text: `${f.toolName === null ? "" : `${f.toolName}: `}${f.message}${f.evidence.text ? ` — evidence: ${f.evidence.text}` : ""}` },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: options.artifactUri }, region: { startLine: line && line > 0 ? line : 1 } },
          logicalLocations: [{ name: where, fullyQualifiedName: `${where}${f.pointer}`, kind: "function" }],
        },
      ],
      partialFingerprints: { "toolwatchFinding/v1": stableHash([f.ruleId, f.toolName ?? "", f.pointer, f.evidence.text].join("\u0000")) },
      properties: {
        severity: f.severity,
        "security-severity": SECURITY_SEVERITY[f.severity],
        pointer: f.pointer,
        evidence: f.evidence,
        ...(f.decoded !== undefined ? { decoded: f.decoded } : {}),
        ...(f.discounted ? { discounted: true } : {}),
        ...(f.vetoedBy ? { vetoedBy: f.vetoedBy } : {}),
      },
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0" as const,
    runs: [
      {
        tool: { driver: { name: "toolwatch", // The project has no public home yet: the driver links documentation only when told where it is.
            ...(options.informationUri ? { informationUri: options.informationUri } : {}), ...(options.toolVersion ? { version: options.toolVersion } : {}), rules } },
        results,
        columnKind: "utf16CodeUnits" as const,
      },
    ],
  };
}
