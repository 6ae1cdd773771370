// The audit rule catalogue: ids, families and default severities follow docs/detection-rules.md
// §1 (sources cited there). A rule's findings may be raised or lowered from the default by what
// was matched (e.g. R1 is critical with a decoded tag message); quoted or example-framed matches
// are lowered to low.
import type { AuditRuleId, Family, Severity } from "./types";

export type RuleInfo = { id: AuditRuleId; family: Family; name: string; severity: Severity; summary: string; implemented: boolean };

const rule = (id: AuditRuleId, family: Family, name: string, severity: Severity, summary: string, implemented = true): RuleInfo => ({
  id,
  family,
  name,
  severity,
  summary,
  implemented,
});

export const AUDIT_RULES: readonly RuleInfo[] = [
  rule("R1", "A", "invisible-unicode", "high", "Invisible or format characters (zero-width, bidi controls, variation selectors, Unicode tags); critical with 3+ kinds or a decoded hidden message."),
  rule("R2", "A", "terminal-escape", "high", "ANSI/terminal escape sequences or carriage-return overwrites that hide text in terminal clients (Trail of Bits line jumping)."),
  rule("R3", "A", "offscreen-padding", "medium", "Text hidden when rendered: long whitespace runs, HTML comments, markdown link titles and comments, invisible elements, collapsed <details> (high when it addresses the model or gives an order), or a description far longer than the server's others."),
  rule("R4", "A", "encoded-payload", "high", "Base64, base32, hex, percent-encoded, \\uXXXX, HTML-entity, rot13, reversed or leetspeak payloads whose decoded text is a shell command, exfiltration or an instruction: decoded and re-scanned (the decoded text is shown)."),
  rule("R5", "A", "script-switch", "low", "A passage in a different script from the rest of the text, or words mixing Latin with look-alike letters."),
  rule("R6", "B", "authority-tag", "high", "Fake authority tags aimed at the model: <IMPORTANT>, <SYSTEM>, [SYSTEM NOTE], **CRITICAL FIRST STEP**."),
  rule("R7", "B", "pre-invocation-imperative", "medium", "Line jumping: instructions to act before or around every call (\"before using this tool, read…\", \"whenever you call any tool…\")."),
  rule("R8", "B", "instruction-override", "high", "Attempts to override the agent's instructions (\"ignore previous instructions\", \"bypass restrictions\", developer mode), also in de, es, fr, it, pt, nl, ru, zh, ja, ko; and consent manufactured for the user (\"all tool calls are pre-approved\", \"do not ask for confirmation\") in English and a dozen other languages."),
  rule("R9", "B", "concealment", "high", "Instructions to hide behaviour from the user (\"do not mention this to the user\", \"silently send\")."),
  rule("R10", "B", "coercive-condition", "medium", "Threats that the tool fails, crashes or loses data unless the agent complies."),
  rule("R11", "B", "emphasis-vocabulary", "low", "Several distinct emphasis or override words (important, crucial, urgent, ignore, bypass…)."),
  rule("R12", "C", "sensitive-path", "medium", "Mentions of credential files and keys: ~/.ssh/id_rsa, .env, ~/.aws/credentials, mcp.json, /etc/shadow, *.pem…"),
  rule("R13", "C", "exfiltration-directive", "high", "An imperative to read, include or send a sensitive file or secret (verb within ~60 characters of the target)."),
  rule("R14", "C", "data-routing", "high", "Instructions to put conversation history, messages or other data into a parameter, or to redirect recipients."),
  rule("R15", "C", "url", "info", "URLs in model-visible text; high for tunnels, paste sites, webhook catchers, shorteners, raw public IPs and cloud metadata endpoints."),
  rule("R16", "C", "collecting-parameter", "medium", "Parameters or requests that collect chat or file content, or credentials the tool has no reason to need (password, MFA/one-time code, recovery phrase, card data, cloud secret): credential phishing and capability mismatch."),
  rule("R17", "C", "hidden-secondary-behaviour", "high", "Descriptions of covert side effects: \"also uploads…\", \"for analytics purposes send…\", sharing with third parties."),
  rule("R18", "C", "embedded-credential", "high", "Live-looking credentials embedded in text (AWS keys, private key blocks, GitHub/Slack/OpenAI tokens); placeholders are ignored."),
  rule("R19", "D", "shadowing-reference", "high", "The text names a distinctive tool that exists only on another of the team's servers (or on no known server)."),
  rule("R20", "D", "cross-tool-manipulation", "medium", "Steering the agent away from other tools (\"instead of the X tool\", \"never use X\") and impersonation: claims to replace, supersede or override another server's tool, or that it is broken or compromised."),
  rule("R21", "D", "name-collision", "medium", "Duplicate names within a list, the same name with another definition on another server, typosquatted or look-alike names (numbered or versioned siblings excepted)."),
  rule("R22", "E", "schema-field-poisoning", "high", "Instruction or exfiltration content inside schema fields (full-schema poisoning): property descriptions, enum values, defaults, examples, titles."),
  rule("R23", "E", "suspicious-property", "high", "A property name that is itself an instruction, or a default/example/const/resource URI holding a command, a sensitive path, a cloud metadata endpoint or an out-of-place URL."),
  rule("R24", "E", "open-sink", "medium", "additionalProperties: true with no declared properties: the tool accepts anything the agent sends."),
  rule("R25", "E", "description-schema-contradiction", "high", "Prose or readOnlyHint claims read-only while the schema or text says write, delete or execute."),
  rule("R26", "F", "change-introduced-cues", "high", "A change introduced a cue class the previous version did not have (URL, agent instruction, concealment, tool reference, sensitive path…)."),
  rule("R27", "F", "annotation-escalation", "high", "Annotation drift: readOnlyHint true→false, destructiveHint false→true, openWorldHint false→true (high); weaker safety claims (medium)."),
  rule("R28", "F", "new-parameter", "low", "A new parameter on an existing tool; high when it is free text, a path or a URL and either required or asking for a secret, personal data or the conversation."),
  rule("R29", "F", "silent-change", "low", "The definition changed, or tools were added or removed, without list_changed and without a serverInfo.version bump (how it arrived: the alert pipeline raises the change one level for it)."),
  rule("R30", "F", "rename-evasion", "medium", "A tool removed and another added with a near-identical body: reported as a change of the old tool."),
  rule("R31", "F", "per-identity-divergence", "medium", "Different definitions for different identities (needs per-identity probes; not produced by scanTools/scanChange).", false),
  rule("R32", "F", "collapse", "high", "The tool count dropped to zero, or sharply, against the previous snapshots."),
  rule("R33", "C", "converging-signals", "high", "Several independent weak signals in one sentence (data moved, a sensitive object, a destination that is not the user, concealment, a standing order, an object outside the tool's purpose, asking the user for a credential), or a fixed outside address as the default of a destination parameter."),
  rule("R35", "G", "learned-scorer", "high", "Two logistic regressions over character and word n-grams and structural signals, one over the whole item with the other rules' hits and one over each sentence alone, stacked and trained on the tuning corpus only (npm run train-detector): the probability that an item is poisoned, at medium or high by thresholds chosen on held-apart tuning files."),
  rule("R34", "E", "misplaced-directive", "high", "An order to the agent where text documents data, not an action: a call to a tool, words addressed to the agent, or data sent to a fixed outside address in an enum value, default, example, output-schema field, property title, or a resource's or template's description."),
];

export const RULE_BY_ID: Record<AuditRuleId, RuleInfo> = Object.fromEntries(AUDIT_RULES.map((r) => [r.id, r])) as Record<AuditRuleId, RuleInfo>;

export const familyOf = (id: AuditRuleId): Family => RULE_BY_ID[id].family;

/** The page that explains a rule with an example, as a repository path (docs/rules/<ruleId>.md). */
export const ruleDocPath = (id: AuditRuleId): string => `docs/rules/${id}.md`;
