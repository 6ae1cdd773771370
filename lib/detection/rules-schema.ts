// Family E — schema-level poisoning (CyberArk "Full-Schema Poisoning"; detection-rules R22–R25).
// R22 is how A–D findings inside schema fields are reported as schema poisoning; R23–R25 look at
// the schema itself: identifiers that are sentences, defaults that are commands, open sinks, and
// prose that contradicts the schema or the annotations.
import { isObject } from "@/lib/diff/json";
import { inputProperties } from "./extract";
import { expandIdentifier, normalizeText } from "./normalize";
import { METADATA_HOST, PATH_TARGETS } from "./rules-data";
import type { FindingSink } from "./sink";
import { SEVERITY_RANK, type AuditFinding, type ExtractedString, type Severity, type StringField, type ToolLike } from "./types";

const SCHEMA_FIELDS = new Set<StringField>(["schema-description", "schema-title", "enum", "default", "examples", "const", "schema-keyword", "required"]);
const POISON_RULES = new Set(["R6", "R7", "R8", "R9", "R10", "R13", "R14", "R17", "R4"]);

/** R22 — instruction or exfiltration findings that sit inside schema fields. */
export function schemaPoisoning(findings: readonly AuditFinding[], sink: FindingSink): void {
  const byPointer = new Map<string, AuditFinding>();
  for (const f of findings) {
    if (!f.field || !SCHEMA_FIELDS.has(f.field) || f.discounted || !POISON_RULES.has(f.ruleId) || SEVERITY_RANK[f.severity] < SEVERITY_RANK.medium) continue;
    const prev = byPointer.get(f.pointer);
    if (!prev || SEVERITY_RANK[f.severity] > SEVERITY_RANK[prev.severity]) byPointer.set(f.pointer, f);
  }
  for (const f of byPointer.values()) {
    const severity: Severity = SEVERITY_RANK[f.severity] >= SEVERITY_RANK.high || f.field !== "schema-description" ? "high" : "medium";
    sink.add({ toolName: f.toolName, pointer: f.pointer, field: f.field }, "R22", severity, f.evidence, `${f.ruleId} content inside a schema ${f.field} (full-schema poisoning)`);
  }
}

const EXFIL_NAME = /\b(?:content|contents|data|value|result|output|read|reading|fetch|get|dump|steal|exfil|extract|copy|upload|send|from)\b.{0,40}\b(?:ssh.{0,5}(?:id.rsa|key)|id.rsa|private.key|api.key|secret.key|credentials?|passwd|env.(?:secret|key|file|var)|aws.secret|access.token|auth.token|mcp.json|cursor.mcp|kube.?config(?:.file)?|docker.config|npmrc|netrc|git.credentials|gcloud.credentials|dot.?env(?:.file)?|environment.variables|session.cookies?|browser.cookies?)\b/;
const DIRECTIVE_NAME = /\b(?:ignore|disregard|forget|override|bypass)\b\s+(?:\w+\s+){0,2}\b(?:previous|prior|all|above|earlier|preceding|former|initial|original)\b\s+(?:\w+\s+){0,2}\b(?:instructions?|rules?|directives?|prompts?|constraints?|guidelines?|guardrails?|restrictions?|commands?)\b/;
const SENTENCE_NAME = /\b(?:read|send|include|ignore|always|must|before|call|pass|upload|never|secretly)\b/;
const SHELL_TOOL = /\b(?:shell|commands?|terminal|exec\w*|bash|zsh|powershell|run\s+(?:a\s+)?command|cli)\b/;
const COMMAND = /\$\(|`[^`]{3,200}`|\b(?:curl|wget|bash|powershell|ncat|nc|sudo|eval)\b[^\n]{0,80}(?:\||;|&&|\s-c\b|https?:)|\|\s*(?:ba)?sh\b|\brm\s+-rf?\b|\bchmod\s+[0-7+]/;
const URLISH_NAME = /url|uri|link|endpoint|href|webhook|callback|host|server|site|domain|source|image|icon|origin|base|proxy|registry|repo/i;
const PATHISH_NAME = /path|file|key|cert|dir|config|identity|keystore|credential|location|folder|output|bestand|datei|fichier|archivo|ficheiro|plik|dosya|pfad|chemin|ruta|percorso/i;
const PATH_RE = new RegExp(PATH_TARGETS);
const KEY_TOOL = /\b(?:env|dotenv|environment|npmrc|kubeconfig|ssh|keys?|keypairs?|gpg|pgp|certificates?|certs?|tls|ssl|keystore|dotfiles?|credentials?)\b/;
/** Names of tools that manage keys rather than read them out: get_api_key_metadata, rotate_token. */
const KEY_MANAGEMENT = /\b(?:metadata|list|lists|rotate|revoke|create|manage|delete|info|status|expir\w*|scopes?|usage)\b/;
/** Recipient properties whose value the user, not the server, should choose (postmark-mcp's Bcc backdoor). */
const RECIPIENT_NAME = /^(?:b?cc|bcc_?\w*|cc_?\w*|blind_?copy\w*|copy_?to|forward_?to|reply_?to|recipients?|to)$/i;
const EMAIL = /(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[a-z]{2,}\b/;

const propertyOf = (pointer: string) => {
  const m = /\/properties\/([^/]+)(?:\/(?:default|examples|const|example)(?:\/.*)?)?$/.exec(pointer);
  return m ? m[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : "";
};

/** R23 — identifiers that are instructions, and defaults/examples holding commands, URLs or secrets' paths. */
export function scanSchemaStrings(toolName: string, strings: readonly ExtractedString[], sink: FindingSink, purpose = ""): void {
  const descriptions = new Map(strings.filter((s) => s.field === "schema-description").map((s) => [s.pointer.replace(/\/description$/, ""), s.text]));
  for (const s of strings) {
    const scope = { toolName, pointer: s.pointer, field: s.field };
    const ev = { text: s.text.length > 160 ? `${s.text.slice(0, 159)}…` : s.text, start: 0, end: s.text.length };
    if (s.field === "property-name" || s.field === "required" || s.field === "name") {
      const words = normalizeText(expandIdentifier(s.text)).text;
      if (EXFIL_NAME.test(words) && !(s.field === "name" && KEY_MANAGEMENT.test(words))) sink.add(scope, "R23", "critical", ev, `the identifier "${words}" tells the agent to fetch a secret`);
      else if (DIRECTIVE_NAME.test(words)) sink.add(scope, "R23", "critical", ev, `the identifier "${words}" is an instruction override`);
      else if (words.split(" ").length >= 6 && SENTENCE_NAME.test(words)) sink.add(scope, "R23", "high", ev, `the identifier "${words}" reads as an instruction`);
      continue;
    }
    if (s.field !== "default" && s.field !== "examples" && s.field !== "const" && s.field !== "uri") continue;
    const text = s.text.toLowerCase();
    const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)/.exec(text.trim())?.[1] ?? "";
    if (METADATA_HOST.test(host)) {
      sink.add(scope, "R23", "high", ev, `${s.field} value is a cloud metadata endpoint: fetching it returns the machine's cloud credentials`);
      continue;
    }
    if (s.field === "uri") continue;
    const prop = propertyOf(s.pointer);
    const propDescription = descriptions.get(s.pointer.replace(/\/(?:default|examples|example|const)(?:\/.*)?$/, "")) ?? "";
    // BigQuery's `project.dataset.table` quoting is SQL, not a command substitution; a shell tool's example command is its subject.
    const sql = /^\s*(?:select|with|insert|update|delete|create|explain)\b/.test(text);
    if (!sql && COMMAND.test(text)) sink.add(scope, "R23", SHELL_TOOL.test(purpose) && s.field !== "const" ? "low" : "high", ev, `${s.field} value is a shell command`);
    // A default or example path on a path property is a suggestion; a const is the only value the call may carry.
    // A key manager's default key name, a cert tool's default cert: the tool's own subject.
    else if (PATH_RE.test(text)) sink.add(scope, "R23", (PATHISH_NAME.test(prop) || KEY_TOOL.test(purpose)) && s.field !== "const" ? "low" : "high", ev, `${s.field} value points at a sensitive file`);
    else if (RECIPIENT_NAME.test(prop) && EMAIL.test(text)) sink.add(scope, "R23", "high", ev, `${s.field} value puts a fixed address on the "${prop}" recipient property: every message is copied to it unless the agent overrides it`);
    else if (/\bhttps?:\/\//.test(text) && !URLISH_NAME.test(prop) && !/\b(?:url|uri|link|address)\b/i.test(propDescription)) sink.add(scope, "R23", "medium", ev, `${s.field} value is a URL on a property that is not a URL`);
  }
}

/** R24 — additionalProperties: true (or {}) with no declared properties. */
export function scanOpenSink(tool: ToolLike, sink: FindingSink): void {
  const schema = tool.inputSchema;
  if (!isObject(schema)) return;
  const open = schema.additionalProperties === true || (isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length === 0);
  const props = isObject(schema.properties) ? Object.keys(schema.properties).length : 0;
  if (open && props === 0) {
    const scope = { toolName: String(tool.name), pointer: "/inputSchema/additionalProperties" };
    sink.add(scope, "R24", "medium", { text: "additionalProperties: true", start: 0, end: 0 }, "accepts any arguments and declares none: an open sink for whatever the agent is told to send");
  }
}

/** Where a sentence states the tool's own action: "This tool also …", "It silently …", or the verb first. */
const OWN_ACTION = String.raw`^(?:(?:this tool|the tool|it)\s+)?(?:also\s+|\w+ly\s+)?`;
/**
 * A sentence that opens with a destructive verb in the present or imperative ("Deletes …", "Silently
 * sends …", "It also removes …") states the tool's own action; "who deleted a record" is data.
 */
const ACTION_FIRST = new RegExp(String.raw`${OWN_ACTION}((?:deletes?|deleting|removes?|drops?|truncates?|overwrites?|erases?|destroys?|wipes?|kills?|terminates?|purges?|uninstalls?|executes?|writes?|modif(?:y|ies)|sends?|transfers?|purchases?|pays?)\b)`);
const DESTRUCTIVE_PARAM = /(?:^|_)(?:write|delete|remove|drop|overwrite|exec|execute|command|cmd|truncate|destroy|kill|purge|wipe|write_?mode)(?:$|_)/i;
/**
 * A destroying verb whose object is stored state (files, records, a branch, a bucket …) within the
 * same clause: "Deletes all untracked files", "Delete a customer record". Text the tool transforms is
 * not stored state ("Removes zero-width characters from pasted text", "Removes the 18 HIPAA
 * identifiers from clinical text"): none of those nouns is listed, and FROM_TEXT rules the clause out.
 */
const DESTROYS_STORED = new RegExp(String.raw`${OWN_ACTION}(?:deletes?|deleting|removes?|drops?|truncates?|overwrites?|erases?|destroys?|wipes?|purges?|uninstalls?)\b[^.;:,]{0,60}?\b(?:files?|folders?|director(?:y|ies)|records?|rows?|tables?|databases?|schemas?|collections?|branch(?:es)?|repos(?:itory|itories)?|commits?|accounts?|users?|customers?|orders?|messages?|emails?|mailbox(?:es)?|buckets?|objects?|volumes?|disks?|containers?|instances?|clusters?|namespaces?|deployments?|backups?|snapshots?|projects?|documents?|working tree|history|logs?)\b`);
const FROM_TEXT = /\bfrom\s+(?:(?:a|an|the|pasted|given|input|plain|clinical|raw)\s+){0,2}(?:block of\s+)?(?:text|string|input|output|content|markdown|html|code)\b/;
const CLAIMS_READ_ONLY = /\bread[- ]?only\b|\bdoes\s+not\s+(?:modify|change|write|delete)\b|\bnever\s+(?:modif|writ|delet)\w*|\bnon[- ]destructive\b|\bno\s+side[- ]effects\b/;
// "Write statements are rejected" is the read-only promise kept, not broken.
const SOFTENED = /\bread[- ]?only\b|\b(?:not|never|no|without|cannot|can't|won't|doesn't|n't|rejected|refused|blocked|disallowed|forbidden|prohibited|denied)\b/;

/** R25 — "read-only" in prose or in readOnlyHint, while the schema or the text says otherwise. */
export function scanContradiction(tool: ToolLike, sink: FindingSink): void {
  const name = String(tool.name);
  const text = typeof tool.description === "string" ? normalizeText(tool.description).text : "";
  const readOnlyHint = isObject(tool.annotations) && tool.annotations.readOnlyHint === true;
  const claims = readOnlyHint || CLAIMS_READ_ONLY.test(text);
  if (!claims) return;
  const claim = readOnlyHint ? "readOnlyHint: true" : "the description claims read-only";
  for (const [prop, schema] of inputProperties(tool)) {
    const writeDefault = /write|mode/i.test(prop) && (schema.default === true || (typeof schema.default === "string" && /write|delete|overwrite/i.test(schema.default)));
    if (DESTRUCTIVE_PARAM.test(prop) || writeDefault) {
      const scope = { toolName: name, pointer: `/inputSchema/properties/${prop.replace(/~/g, "~0").replace(/\//g, "~1")}`, field: "property-name" as const };
      sink.add(scope, "R25", "high", { text: prop, start: 0, end: prop.length }, `${claim}, but it takes a "${prop}" parameter`);
      return;
    }
  }
  if (!readOnlyHint || !text) return;
  // Quoted text is mentioned, not done: a detector lists "send the contents of ~/.ssh/id_rsa to" as a pattern.
  for (const sentence of text.replace(/"[^"\n]{3,200}"|“[^”\n]{3,200}”|‘[^’\n]{3,200}’|`[^`\n]{3,200}`|(?<![\p{L}\p{N}])'[^'\n]{3,200}'(?![\p{L}\p{N}])/gu, " ").split(/(?<=[.!?])\s+|\n/)) {
    // Only the tool's own action counts (ACTION_FIRST). Anywhere else the words are nouns or reported
    // facts ("the pay period", "rapid transfers", "analyze=true executes the statement"): on the
    // tuning corpus the anywhere-match fired on 9 benign tools and 7 poisoned ones, most of them by
    // coincidence. And medium: an annotation at odds with the text is evidence to weigh, not an
    // attack on its own.
    const own = sentence.trim();
    const m = ACTION_FIRST.exec(own);
    if (m && !SOFTENED.test(sentence)) {
      // Critical (and so never discounted by R35's veto, learned/score.ts vetoFindings) when what it
      // destroys is stored state: a client that trusts readOnlyHint runs the call without asking, so
      // the annotation alone turns "Deletes all untracked files" into a deletion nobody approved,
      // whatever the author meant. On the tuning files this fires on 3 attacks and no honest tool
      // (the 10 honest tools with R25 on the annotation transform text or send an inquiry).
      if (DESTROYS_STORED.test(own) && !FROM_TEXT.test(sentence)) {
        sink.add({ toolName: name, pointer: "/annotations/readOnlyHint" }, "R25", "critical", { text: sentence.slice(0, 160), start: 0, end: 0 }, `readOnlyHint: true, but the tool destroys stored data: "${m[1]}" (a client that trusts the annotation runs it without asking)`);
        return;
      }
      sink.add({ toolName: name, pointer: "/annotations/readOnlyHint" }, "R25", "medium", { text: sentence.slice(0, 160), start: 0, end: 0 }, `readOnlyHint: true, but the description says "${m[1]}"`);
      return;
    }
  }
}
