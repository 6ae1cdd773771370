// Family C — data access and exfiltration (detection-rules R12–R18). R16 judges a tool's
// parameters against what the tool says it is for; the others are phrase rules over one string.
import { ROLE_RE, cueSentences, foldForCues, mayBeForeign } from "./cues-multilingual";
import { expandIdentifier } from "./normalize";
import type { FindingSink, Scope, ToolContext } from "./sink";
import { matches, type TextView } from "./text-view";
import { VALUE_FIELDS, type Severity, type ToolLike } from "./types";
import { inputProperties } from "./extract";

/** Environment variable names that hold secrets (OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN…), in folded (lower) case. */
export const SECRET_ENV = String.raw`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:api_?key|secret(?:_access)?_key|client_secret|secret|token|password|passwd|pat|private_key|access_key(?:_id)?)\b`;
export const PATH_TARGETS = String.raw`~?\/?\.ssh(?:\/[\w.-]*[\w-])?|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\bauthorized_keys\b|(?<![\w.])\.env(?:\.[a-z]+)?\b|~?\/?\.aws\/(?:credentials|config)?|~?\/?\.cursor\/mcp\.json|\bmcp\.json\b|\bclaude_desktop_config\.json\b|\/etc\/(?:passwd|shadow|sudoers)\b|(?<![\w*-])[\w*-]{1,64}\.(?:pem|p12|pfx|jks|keystore|kdbx)\b|(?<![\w.-])[\w.-]{0,48}(?:token|credentials?|secrets?|service[_-]?account|zugang\w*|anmelde\w*|passw\w*|identifiants?|credenzial\w*|credencial\w*|wachtwoord\w*|haslo)[\w.-]{0,48}\.(?:json|ya?ml|toml|ini)\b|~?\/?\.config\/(?:gcloud|gh)\b|(?<![\w.])~?\/?\.azure\b|\.terraformrc\b|\.(?:npmrc|pypirc|netrc|git-credentials|pgpass|htpasswd|bash_history|zsh_history)\b|\.docker\/config\.json|\.kube\/config|\.gnupg\b|\bwallet\.dat\b|\/(?:var\/)?run\/secrets\b[\w.\/-]*|\/etc\/secrets\b[\w.\/-]*|\/proc\/self\/environ\b|\.git\/config\b|\bgit\s+credential\s+fill\b|~?\/?\.(?:config|local\/share)\/[\w.\/-]{0,80}\/(?:tokens?|credentials?|secrets?|api[_-]?keys?|auth(?:[_-]?token)?|access[_-]?token|passwords?)(?![\w.\/-])|(?<![\w.-])[\w.-]{0,48}(?:auth|credentials?|secrets?|tokens?|passwords?|logins?|key[34])\.(?:db|sqlite3?)\b`;
export const SECRET_NOUNS = String.raw`\b(?:api[ _-]?keys?|secret[ _-]?keys?|private[ _-]?keys?|access[ _-]?tokens?|auth(?:entication)?[ _-]?tokens?|bearer\s+tokens?|client[ _-]?secrets?|passwords?|passphrases?|credentials|seed\s+phrases?|mnemonics?|session\s+cookies?|ssh\s+keys?|environment\s+variables|env\s+vars|(?:all|every|each)\s+(?:the\s+|of\s+the\s+)?secrets?|printenv|os\.environ|process\.env)\b|${SECRET_ENV}`;
const ACCESS_VERBS = String.raw`read|cat|open|access|retrieve|fetch|dump|copy|collect|gather|extract|print|get|load`;
const TRANSFER_VERBS = String.raw`include|send|upload|post|forward|attach|embed|pass|provide|append|prepend|exfiltrate|steal|transmit|leak|paste|insert|put|add|supply|share|concatenate`;
const VERBS = `${ACCESS_VERBS}|${TRANSFER_VERBS}`;
const TRANSFER = new RegExp(String.raw`^(?:${TRANSFER_VERBS})\b`);
const PATH_ONLY = new RegExp(PATH_TARGETS);
/** Up to `n` characters that do not end a sentence (a dot inside a path does not). */
const WITHIN = (n: number) => String.raw`(?:(?![.!?](?:\s|$))[^\n]){0,${n}}?`;
const TARGET = `(?:${PATH_TARGETS}|${SECRET_NOUNS})`;

const R12 = new RegExp(PATH_TARGETS, "g");
const PUBLIC_KEY = /\bid_(?:rsa|dsa|ecdsa|ed25519)\.pub\b/g;
const R13_FORWARD = new RegExp(String.raw`\b(?:${VERBS})\b${WITHIN(60)}(?:${TARGET})`, "g");
const R13_REVERSE = new RegExp(String.raw`(?:${PATH_TARGETS})${WITHIN(40)}\b(${TRANSFER_VERBS})\b`, "g");
const NOT_IMPERATIVE = /\b(?:is|are|was|were|be|been|being|not|never|no|cannot|can't|won't|doesn't|don't|didn't|isn't|aren't|will|would|may|might|can|could|which|that|it|who)\s+$/;

/** The verb at `at` reads as an instruction (sentence start, after "and", "then", "please", "must"…), not as description. */
function imperativeAt(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 30), at);
  if (NOT_IMPERATIVE.test(before)) return false;
  return /(?:^|[\n.:;!?(*"'`>\]-]|,)\s*$/.test(before) || /\b(?:and|then|also|please|first|to|must|should|always|you|now|just|kindly|immediately|secretly|silently|quietly|next|finally|additionally|afterwards)\s+$/.test(before);
}

/** "instructions to", "attempts to", "telling the agent to": what follows is the order being described. */
const NAMES_AN_ORDER = /\b(?:instructions?|attempts?|requests?|orders?|commands?|payloads?|prompts?|tries|trying|(?:telling|asking|tell|ask)\s+(?:the\s+)?(?:agent|model|assistant|llm)s?)\s+to\s+$/;
const USER_SUPPLIED = /^[^.\n]{0,20}\bonly\s+(?:when|if)\s+(?:the\s+)?(?:user|you)\s+(?:supplies|supply|provides|provide|gives|give|enters|enter|types|type|asks|ask|explicitly)\b/;

/** Stems of sensitive targets, for "the tool's own purpose" checks (an SSH tool may mention ~/.ssh). */
const STEMS: Array<[RegExp, RegExp]> = [
  // A machine being created takes the user's SSH key for its login (a droplet, an instance, a VM).
  [/ssh|id_|authorized_keys/, /\b(ssh|sftp|scp|key|keys|remote|host|droplets?|instances?|vms?|vps|machines?|servers?)\b/],
  [/\.env|environment|env /, /\b(env|dotenv|environment|config|variables?)\b/],
  [/kube/, /\b(kubectl|kubernetes|k8s|kube|kubeconfig)\b/],
  [/aws/, /\b(aws|s3|amazon|cloud)\b/],
  [/pem|p12|pfx|jks|keystore|certificate/, /\b(cert|certs|certificate|tls|ssl|pem|keystore|pki)\b/],
  [/mcp\.json|claude_desktop|cursor/, /\b(mcp|config|configuration|cursor|claude)\b/],
  [/api|secret|token|password|credential|passphrase|cookie|mnemonic|seed|private|key/, /\b(auth|login|secret|secrets|vault|password|passwords|credential|credentials|token|tokens|keychain|oauth|1password|bitwarden|key|keys|sign|signin|ssh|sftp|keepass\w*|tresor|entsperren|coffre|boveda|cofre|kluis)\b/],
];
const ownPurpose = (target: string, tool: ToolContext) => {
  const nameWords = `${expandIdentifier(tool.name ?? "").toLowerCase()} ${tool.title}`;
  return STEMS.some(([t, words]) => t.test(target) && words.test(nameWords));
};
/** A file lister or finder names dotfiles because it lists them (names, not contents): a mention (R12), not a directive (R13). */
const LISTER = /\b(?:ls|lists?|listing|tree|glob|find|finds|finder)\b.{0,40}\b(?:files?|director(?:y|ies)|dir|folders?|dotfiles|entries)\b|\b(?:director(?:y|ies)|dir|folder)\s+(?:listing|lister|entries)\b|^ls\b/;
const lower = (s: Severity): Severity => (s === "critical" ? "high" : s === "high" ? "medium" : s === "medium" ? "low" : s);

const CHAT = String.raw`conversation|chat(?:\s+history)?|transcript|history|system\s+prompt|prompt|session|memory|previous\s+(?:tool\s+)?(?:results?|outputs?|responses?|messages)|tool\s+(?:outputs?|results?)|(?:last|recent|previous|prior)\s+messages`;
const MAIL = String.raw`emails?|messages?|thread|inbox|contacts`;
const DEST_PARAM = String.raw`\b(?:in|into|as|to|inside|within|via|under)\s+(?:the\s+)?(?:["'\`][\w.-]+["'\`]|[\w-]+\s+(?:parameter|argument|field|param)|parameter|argument|field)`;
const DEST = String.raw`(?:(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[\w.-]+|\+\d[\d\s-]{7,}\d|https?:\/\/\S+|attacker|our\s+server)`;
const GIVE = String.raw`include|pass|send|add|put|provide|attach|insert|append|prepend|forward|copy|paste|embed|supply|fill`;

type DataPattern = { re: RegExp; severity: Severity; message: string; purpose?: RegExp };
const R14: DataPattern[] = [
  { re: new RegExp(String.raw`\b(?:${GIVE})\s+(?:[\w']+\s+){0,4}?(?:${CHAT})\b[^.\n]{0,60}?${DEST_PARAM}`, "g"), severity: "high", message: "asks for conversation or context data in a parameter", purpose: /\b(conversation|chat|history|summar\w*|memory|transcript|context|prompt)\b/ },
  { re: new RegExp(String.raw`\b(?:${GIVE})\s+(?:[\w']+\s+){0,4}?(?:${MAIL})\b[^.\n]{0,60}?${DEST_PARAM}`, "g"), severity: "high", message: "asks for message content in a parameter", purpose: /\b(e?mail|message|messages|chat|post|send|reply|thread|inbox|slack|whatsapp|sms)\b/ },
  { re: new RegExp(String.raw`\b(?:${GIVE}|upload|post|transmit|leak)\s+(?:[\w']+\s+){0,4}?(?:${CHAT})\b[^.\n]{0,40}?\bto\s+${DEST}`, "g"), severity: "high", message: "sends conversation or context data to a destination", purpose: /\b(conversation|chat|history|summar\w*|memory|transcript|export\w*|backup)\b/ },
  { re: /\b(?:include|attach|append|add|send|pass|forward|provide)\s+(?:a\s+|the\s+)?(?:full|entire|complete|whole)\s+(?:list|copy|dump|log|record|history|transcript)\s+of\s+(?:\w+\s+){0,2}?(?:messages|conversations?|chats?|emails?|history|files|contacts|documents)\b/g, severity: "high", message: "asks for a full dump of messages or files" },
  { re: new RegExp(String.raw`\b(?:${GIVE})\b[^.\n]{0,50}?\b(?:(?:full|entire|complete|whole)\s+(?:conversation|chat)\b(?:\s+(?:history|log|transcript|context))?|(?:full|entire|complete|whole)\s+message\s+(?:history|log))`, "g"), severity: "high", message: "asks for the full conversation", purpose: /\b(conversation|chat|history|summar\w*|memory|transcript)\b/ },
  { re: new RegExp(String.raw`\b(?:collect|gather|bundle|zip|archive|upload|send|post|forward|submit|sync|mirror|copy|share)\b${WITHIN(80)}\b(?:files?|folders?|director(?:y|ies)|workspace|project|repo(?:sitory)?|codebase|documents?|contents?|data|results?|them|it|everything)\b${WITHIN(60)}\b(?:to|via|into)\s+https?:\/\/`, "g"), severity: "high", message: "sends local data to an external URL", purpose: /\b(upload\w*|send\w*|sync\w*|backup|back up|publish\w*|webhook|post\w*|share|export\w*|deploy\w*)\b/ },
  { re: new RegExp(String.raw`\b(?:send|forward|route|redirect|copy|mirror|cc|bcc)\s+(?:all\s+|every\s+|each\s+|any\s+|a\s+copy\s+of\s+)?(?:the\s+)?(?:emails?|messages?|replies|data|files|requests?|results?|copies|outputs?|responses?)\s+(?:\w+\s+){0,3}?to\s+${DEST}`, "g"), severity: "high", message: "redirects data to a fixed destination" },
  { re: /\b(?:change|set|replace|update|switch|override)\s+(?:the\s+)?(?:recipients?|destination|target|to[- ]address|phone\s+number|email\s+address|webhook(?:\s+url)?|endpoint|channel|receiver)\s+(?:\w+\s+){0,2}?to\s+\S/g, severity: "high", message: "rewrites the recipient or destination" },
  { re: /\b(?:always\s+)?b?cc\s+(?:\w+\s+){0,2}?[\w.+-]{1,64}@[\w-]+\.[\w.-]+/g, severity: "high", message: "adds a hidden recipient" },
  { re: new RegExp(String.raw`\b(?:blind[- ]?(?:carbon[- ])?cop(?:ied|y)|bcc'?(?:e?d)?|cc'?(?:e?d)?|copied|forwarded|mirrored|redirected|relayed|kept|archived)\s+(?:\w+\s+){0,2}?(?:to|at|with)\s+(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[\w.-]+`, "g"), severity: "high", message: "copies messages to a fixed address (hidden recipient)", purpose: /\b(archiv\w*|backup|journal\w*|retention|compliance)\b/ },
  { re: new RegExp(String.raw`\b(?:full|entire|complete|whole)\s+(?:${CHAT})\b(?:\s+of\s+(?:this|the)\s+(?:chat|conversation|session))?[^.\n]{0,40}?${DEST_PARAM}`, "g"), severity: "high", message: "asks for the whole conversation in a parameter", purpose: /\b(conversation|chat|history|summar\w*|memory|transcript|export\w*)\b/ },
  // Secrets picked up from the chat: "record any API key, password or access token that appears in the
  // conversation", "seed one table with any tokens already visible in this conversation". A redactor
  // names the same secrets to take them out, so no negation or removal may stand between.
  { re: /(?<!\b(?:never|not|don't|no)\s+)\b(?:record|keep|save|store|include|add|log|copy|seed|put|write|repeat|paste|append|collect|gather)\b(?:(?!\b(?:redact|mask|strip|remov|scrub|hid|omit|drop|never|not|no|without)\w*)[^.\n]){0,60}?\b(?:passwords?|api\s+keys?|(?:access\s+)?tokens?|secrets?|credentials?|keys)\b[^.\n]{0,40}?\b(?:appears?|visible|shared|mentioned|seen|pasted)\b[^.\n]{0,20}?\b(?:in|during)\s+(?:the|this)\s+(?:conversation|chat|workspace|session|thread)/g, severity: "high", message: "collects secrets that appear in the conversation" },
  // "repeat the password in the `context` field": a credential copied into a free-text parameter.
  { re: /\b(?:repeat|copy|paste|put|write|include|enter|add|append)\s+(?:also\s+)?(?:the\s+|their\s+|its\s+|any\s+|the\s+user'?s\s+)?(?:password|passcode|otp|one-time\s+code|pin|api\s+key|secret|private\s+key)s?\b[^.\n]{0,30}?\b(?:in|into|to)\s+(?:the\s+)?["'`]?(?!(?:password|passcode|pin|otp|code|token|secret|api_?key|credential|auth)\w*["'`\s])[\w.-]+["'`]?\s+(?:field|parameter|argument|param)\b/g, severity: "high", message: "copies a credential into a free-text parameter" },
  { re: /!\[[^\]\n]{0,80}\]\(\s*https?:\/\/[^)\s?&#]{1,200}[?&#][^)\s]{0,300}?(?:\{|<|\$|%7b)/g, severity: "high", message: "markdown image whose URL carries data: rendering it sends the data out" },
];

const R17: DataPattern[] = [
  { re: /\balso\s+(?:silently\s+|quietly\s+)?(?:collects?|uploads?|sends?|forwards?|shares?|transmits?|copies|copy|logs?|records?|stores?|exfiltrates?|syncs?|backs?\s+up)\s+(?:[\w']+\s+){0,4}?(?:data|information|info|contents?|files?|credentials?|keys?|tokens?|history|messages?|conversations?|emails?|inputs?|arguments?|quer(?:y|ies)|prompts?|it|them|everything|a\s+copy|browsing|location|contacts)\b[^.\n]{0,80}?\b(?:to|with)\b/g, severity: "high", message: "describes a hidden side effect that moves data" },
  { re: /\bfor\s+(?:analytics|telemetry|tracking|monitoring|quality|training|research|debugging|logging|backup|caching|auditing|audit|compliance|verification|security)\s+purposes?,?\s+(?:\w+\s+){0,3}?(?:send|upload|include|collect|share|forward|transmit|store|log|attach|pass)\b/g, severity: "high", message: "data collection dressed as analytics or auditing" },
  { re: /\b(?:(?<!^\s*)actually|secretly|covertly)\s+(?:sends?|uploads?|forwards?|exfiltrates?|transmits?|leaks?|shares?|collects?|copies)\b/g, severity: "high", message: "describes covert data movement" },
  { re: /\bshares?\s+(?:[\w']+\s+){0,4}?with\s+(?:third[- ]?part(?:y|ies)|partners|advertisers|external\s+(?:services|parties))/g, severity: "high", message: "shares data with third parties" },
  { re: /\bremote(?:ly)?\s+(?:cach\w+|backup|stor\w+|sync\w*)\s+(?:of\s+)?(?:\w+\s+){0,2}?(?:credentials|keys|tokens|passwords|secrets|ssh)/g, severity: "high", message: "remote copies of credentials" },
];

/** Cheap tests that a target can be present at all. */
const PATH_HINT = /run\/secrets|etc\/secrets|self\/environ|\.ssh|id_(?:rsa|dsa|ecdsa|ed25519)|authorized_keys|\.env|\.aws|mcp\.json|claude_desktop|\/etc\/|\.(?:pem|p12|pfx|jks|keystore|kdbx)\b|(?:token|credential|secret|account)[\w.-]{0,48}\.(?:json|ya?ml|toml|ini)|\.config\/|\.azure|\.terraformrc|\.npmrc|\.pypirc|\.netrc|git-credentials|pgpass|htpasswd|_history|\.docker|\.kube|\.gnupg|wallet\.dat|\.git\/config|credential\s+fill/;
const SECRET_HINT = /key|secret|token|password|passphrase|credential|seed|mnemonic|cookie|environment|env var|printenv|environ|process\.env/;
const R14_HINT = /appear|visible|password|passcode|otp|pin\b|api key|secret|private key|kept|archived|relayed|blind|conversation|chat|message|e-?mail|thread|inbox|contact|history|transcript|prompt|session|memory|result|output|repl|send|forward|route|redirect|copy|mirror|cc\b|recipient|destination|target|phone|webhook|endpoint|channel|receiver|!\[|upload|collect|gather|sync|post|submit|bundle|zip|archive/;
const R17_HINT = /also|purpose|actually|secretly|covertly|share|remote/;

/** R12–R15, R17 over one string. */
export function scanData(view: TextView, scope: Scope, sink: FindingSink): void {
  const t = view.text;
  if (t.length < 4) return;
  const tool = scope.tool;
  const hasPath = PATH_HINT.test(t);
  if (hasPath) for (const m of matches(view, R12)) {
    // A scanner that lists what it looks for names the paths it guards (its R13s are judged below).
    // A mention in prose is information (a backup tool lists what it backs up, a scanner what it
    // scans for); as a value the agent will use (a default, an example, an enum) it is a choice made
    // for the user: medium, unless the tool's own subject.
    const asValue = VALUE_FIELDS.has(scope.field);
    // …or the default of a parameter named for that very file (kubeconfig → ~/.kube/config).
    const property = /\/properties\/([^/]+)\/(?:default|const|examples|enum)/.exec(scope.pointer)?.[1];
    const ownParam = property !== undefined && STEMS.some(([target, words]) => target.test(m[0]) && words.test(expandIdentifier(property).toLowerCase()));
    sink.phrase(view, scope, "R12", !asValue || ownParam || ownPurpose(m[0], tool) || LISTER.test(tool.purpose) || tool.describesAttacks ? "low" : "medium", m.index, m.index + m[0].length, `sensitive file ${JSON.stringify(m[0])}`);
  }
  if (hasPath) for (const m of matches(view, PUBLIC_KEY)) sink.phrase(view, scope, "R12", "low", m.index, m.index + m[0].length, `public key file ${JSON.stringify(m[0])}`);
  for (const re of hasPath ? [R13_FORWARD, R13_REVERSE] : SECRET_HINT.test(t) ? [R13_FORWARD] : []) {
    for (const m of matches(view, re)) {
      const verb = re === R13_FORWARD ? m.index : m.index + m[0].length - m[1]!.length;
      if (!imperativeAt(t, verb)) {
        re.lastIndex = m.index + 1;
        continue;
      }
      const verbText = t.slice(verb);
      // Reading a named credential file, or moving any secret, is exfiltration; "retrieve the
      // password" alone is access. The tool's own summary line describes what it does.
      const strong = PATH_ONLY.test(m[0]) || TRANSFER.test(verbText);
      const summary = scope.field === "description" && t.slice(0, verb).trim() === "";
      // A lister "includes" or "shows" dotfiles in its listing: that names them, it does not move them.
      const listing = LISTER.test(tool.purpose) && /^(?:include|show|list|display|add)\b/.test(verbText);
      // A tool saying what it does with its own secret (a vault's "retrieve an item, including its
      // password", a dotenv tool's summary line) is a description, not a directive: low.
      const severity: Severity = ownPurpose(m[0], tool) || summary || listing ? "low" : !strong ? "medium" : "high";
      // "instructions to read ~/.ssh" names an order (a detector's list), it does not give one; "pass
      // passwords only when the user supplies them" moves what the user hands over, nothing else.
      const named = NAMES_AN_ORDER.test(t.slice(Math.max(0, verb - 40), verb));
      const userGiven = USER_SUPPLIED.test(t.slice(m.index + m[0].length, m.index + m[0].length + 80));
      if (named || userGiven) {
        sink.phrase(view, scope, "R13", "low", m.index, m.index + m[0].length, `instruction to read or send a sensitive file or secret (${named ? "named as an order, not given" : "only what the user supplies"})`);
        continue;
      }
      sink.phrase(view, scope, "R13", severity, m.index, m.index + m[0].length, "instruction to read or send a sensitive file or secret");
    }
  }
  for (const rule of R14_HINT.test(t) ? R14 : []) {
    for (const m of matches(view, rule.re)) {
      const severity = rule.purpose?.test(tool.purpose) ? lower(lower(rule.severity)) : rule.severity;
      sink.phrase(view, scope, "R14", severity, m.index, m.index + m[0].length, rule.message);
    }
  }
  if (hasPath || SECRET_HINT.test(t) || mayBeForeign(view.raw)) scanChannels(view, scope, sink);
  scanUrls(view, scope, sink);
  for (const rule of R17_HINT.test(t) ? R17 : []) for (const m of matches(view, rule.re)) sink.phrase(view, scope, "R17", rule.severity, m.index, m.index + m[0].length, rule.message);
}

const CHANNEL_TARGET = new RegExp(String.raw`${PATH_TARGETS}|${SECRET_ENV}|\b(?:printenv|os\.environ|process\.env)\b|\b(?:the\s+user'?s?|their|your|his|her)\s+(?:[\w.-]+\s+){0,2}?(?:passwords?|passphrases?|api[ _-]?keys?|tokens?|credentials|session\s+cookies?|cookies|private\s+keys?|ssh\s+keys?|seed\s+phrase|recovery\s+phrase)\b`, "g");
const DESTINATION = /https?:\/\/\S+|(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[a-z]{2,}\b/;
const PROHIBITION = /\b(?:never|do\s+not|don't|must\s+not|should\s+not|are\s+not|is\s+not|not\s+be)\b/;
const LOCATOR_PARAM = /^(?:path|paths|file|files|filename|filepath|dir|directory|folder|url|uri|src|source|target|identity_?file|key_?path|kubeconfig|config|config_?path|profile)$/;
const SCHEMA_TEXT = new Set(["description", "title", "schema-description", "schema-title", "instructions", "annotation"]);

/**
 * R13 without an English verb: one sentence names a secret (a credential path, a secret-holding
 * environment variable, "the user's password") AND a channel out of the agent, one of this tool's
 * own parameters or a URL or address. The structure is the attack in every language ("… ~/.ssh/id_rsa
 * … notes …" in Hindi, Vietnamese or Indonesian); a sentence that forbids it, or a tool whose own
 * purpose is that secret (an SSH client and its key), is not.
 */
/**
 * Whether a sentence names one of the tool's parameters as a parameter: quoted, an identifier
 * (snake_case), called a field or parameter, or where something goes ("as notes", "into notes").
 * A bare common word is not enough: "on a Vercel project" does not route anything into "project".
 */
function namedAsParameter(param: string, sentence: string): boolean {
  const p = escapeRe(param);
  const bare = new RegExp(String.raw`(?<![\p{L}\p{N}_])${p}(?![\p{L}\p{N}_])`, "u");
  if (!bare.test(sentence)) return false;
  if (/[_\d]/.test(param) || !/^[a-z]+$/.test(param)) return true;
  const quoted = new RegExp(`[\u0060'"«“„]${p}[\u0060'"»”“]`, "u");
  const marked = new RegExp(String.raw`(?<!\p{L})(?:as|into|in)\s+(?:the\s+)?${p}(?![\p{L}\p{N}_])|${p}\s+(?:field|parameter|param|argument|property|alan\p{L}*)|(?:champ|campo|feld|parametr\w*|paramètre|parámetro|par[aâ]metro|поле)\s+\W?${p}`, "iu");
  return quoted.test(sentence) || marked.test(sentence);
}

function scanChannels(view: TextView, scope: Scope, sink: FindingSink): void {
  if (!SCHEMA_TEXT.has(scope.field)) return;
  const t = view.text;
  // A parameter named for a secret (api_key, token) declares that the tool takes one: "pass api_key to
  // override OPENAI_API_KEY" documents it, it does not route a secret out.
  const params = [...(scope.tool.params ?? [])].filter((p) => !LOCATOR_PARAM.test(p) && !SECRET_PARAM.test(p));
  const severity: Severity = LISTER.test(scope.tool.purpose) ? "medium" : "high";
  /** The way out a sentence names beside its secret (a parameter, a URL or an address), if any. */
  const wayOut = (sentence: string, secret: string, params: readonly string[]) => {
    if (PROHIBITION.test(sentence) || ownPurpose(secret, scope.tool)) return undefined;
    const rest = sentence.replace(secret, " ");
    const param = params.find((p) => namedAsParameter(p, rest));
    return param ? `parameter "${param}"` : DESTINATION.exec(rest)?.[0];
  };
  const message = (secret: string, out: string) => `a secret (${secret}) and a way out (${out}) in one sentence: routes the secret out of the agent`;
  for (const m of matches(view, CHANNEL_TARGET)) {
    const [s, e] = view.sentence(m.index);
    const out = wayOut(t.slice(s, e), m[0], params);
    if (!out) continue;
    // A scanner's list of what it probes ("SSRF to http://169.254.169.254/ and path traversal (../../etc/passwd)") names both.
    if (scope.tool.describesAttacks && scope.field === "description") sink.add(scope, "R13", severity, view.evidence(m.index, m.index + m[0].length), message(m[0], out), { discount: true });
    else sink.phrase(view, scope, "R13", severity, m.index, m.index + m[0].length, message(m[0], out));
    return;
  }
  // The same in other languages: a secret named with the multilingual stems ("パスワード",
  // "رمز التحقق") in a sentence that names one of the tool's parameters or an address.
  if (!mayBeForeign(view.raw)) return;
  // Accent-folded, not the homoglyph-folded view: that strips Japanese voiced marks (パスワード).
  const secret = new RegExp(ROLE_RE.secret.source, "u");
  for (const { start, text } of cueSentences(foldForCues(view.raw))) {
    const m = secret.exec(text);
    // As above, a parameter named for that very secret (`パスワード` for a password) declares that
    // the tool takes one; a password put into a field named for something else is routed.
    const out = m && wayOut(text, m[0], params.filter((p) => !p.includes(m[0]) && !m[0].includes(p)));
    if (!m || !out) continue;
    const at = Math.min(view.raw.length, start + m.index);
    sink.add(scope, "R13", severity, view.rawEvidence(at, Math.min(view.raw.length, at + m[0].length)), `${message(m[0], out)} (in another language)`, { discount: scope.tool.describesAttacks });
    return;
  }
}

const HOSTILE_HOST = /(?:^|\.)(?:ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|loca\.lt|localtunnel\.me|serveo\.net|localhost\.run|pinggy\.io|bore\.pub|webhook\.site|requestbin\.(?:com|net)|pipedream\.net|hookbin\.com|beeceptor\.com|requestcatcher\.com|postb\.in|interact\.sh|oast\.(?:pro|live|site|online|fun|me)|burpcollaborator\.net|canarytokens\.com|dnslog\.cn|ceye\.io|pastebin\.com|paste\.ee|hastebin\.com|termbin\.com|transfer\.sh|0x0\.st|file\.io|paste\.rs|dpaste\.\w+|bit\.ly|tinyurl\.com|t\.co|is\.gd|goo\.gl|ow\.ly|rebrand\.ly|cutt\.ly|shorturl\.at|rb\.gy)$|\.onion$/;
/**
 * Cloud instance-metadata endpoints (AWS/Azure/GCP/Oracle/DigitalOcean 169.254.169.254, AWS ECS
 * 169.254.170.2, AWS IPv6 fd00:ec2::254, Alibaba 100.100.100.200, GCP metadata.google.internal):
 * a request there returns the machine's cloud credentials, so no tool text has a reason to send the
 * agent there.
 */
export const METADATA_HOST = /^(?:169\.254\.169\.254|169\.254\.170\.2|100\.100\.100\.200|\[?fd00:ec2::254\]?|metadata\.google\.internal|metadata\.goog|metadata|instance-data(?:\.ec2\.internal)?)$/;
/** A tool whose own purpose is the tunnel, paste or webhook-catcher service (its URLs are its output, not a destination). */
const HOST_PURPOSE = /\b(?:tunnel\w*|ngrok|cloudflared?|localtunnel|expos(?:e|es|ing)|webhooks?|paste\w*|shorten\w*|requestbin|pipedream|interactsh|canary\w*)\b/;
const HOSTILE_PATH = /^(?:discord(?:app)?\.com\/api\/webhooks|api\.telegram\.org\/bot|hooks\.zapier\.com\/hooks\/catch)/;
const URL_RE = /\b(?:https?|ftp|wss?):\/\/[^\s"'<>)\]`]+|\b(?:\d{1,3}\.){3}\d{1,3}:\d{2,5}\b|\b(?:ngrok(?:-free)?\.(?:io|app)|webhook\.site|pipedream\.net|trycloudflare\.com)\b/g;

function privateIp(host: string): boolean {
  const o = host.split(".").map(Number);
  return o[0] === 10 || o[0] === 127 || o[0] === 0 || (o[0] === 192 && o[1] === 168) || (o[0] === 172 && o[1]! >= 16 && o[1]! <= 31) || (o[0] === 169 && o[1] === 254);
}

const METADATA_PURPOSE = /\b(?:imds\w*|instance\s+metadata|metadata\s+(?:service|endpoint)|ssrf|managed\s+identit\w*|instance\s+(?:role|profile|identity)|workload\s+identity)\b/;

/** Hosts that are this machine, a private network or a documentation name: not an outside destination. */
export const LOCAL_HOST = /^(?:localhost|127\.|0\.0\.0\.0|10\.|192\.168\.|\[?::1)|\.(?:local|internal|example|test|invalid|localhost)$|(?:^|\.)example\.(?:com|org|net)$/;

/** R15 — URLs, ranked by where they lead. */
function scanUrls(view: TextView, scope: Scope, sink: FindingSink): void {
  if (!/:\/\/|\d\.\d+:\d|ngrok|webhook\.site|pipedream|trycloudflare/.test(view.text)) return;
  for (const m of matches(view, URL_RE)) {
    const url = m[0].replace(/[.,;:!?]+$/, "");
    const rest = url.replace(/^[a-z]+:\/\//, "");
    const host = rest.split(/[/?#:]/)[0] ?? "";
    let severity: Severity = "info";
    let why = "URL in model-visible text";
    // A tool about the metadata service itself (an IMDS hardening check, an SSRF scanner) names it as its subject.
    if (METADATA_HOST.test(host)) [severity, why] = METADATA_PURPOSE.test(scope.tool.purpose) || scope.tool.describesAttacks ? ["low", "URL of a cloud metadata endpoint, from a tool whose purpose is that service"] : ["high", "URL of a cloud metadata endpoint (instance credentials; SSRF)"];
    else if (HOSTILE_HOST.test(host) || HOSTILE_PATH.test(rest)) [severity, why] = HOST_PURPOSE.test(scope.tool.purpose.replace(/\S*:\/\/\S*|\S+\.(?:io|app|dev|com|net|me|sh|st|ly)\b\S*/g, " ")) ? ["low", "URL on a tunnel, paste or webhook-catcher host, from a tool whose purpose is that service"] : ["high", "URL on a tunnel, paste, webhook-catcher or shortener host"];
    else if (/^(?:\d{1,3}\.){3}\d{1,3}$/.test(host)) [severity, why] = privateIp(host) ? ["low", "URL to a private IP address"] : ["high", "URL to a raw public IP address"];
    else if (/[?&][\w-]+=(?:\{|\$|<|%7b)/i.test(rest)) [severity, why] = ["medium", "URL with a data placeholder in its query"];
    const raw = view.evidence(m.index, m.index + url.length).text;
    sink.phrase(view, scope, "R15", severity, m.index, m.index + url.length, `${why}: ${raw}`, { noDiscount: severity === "info" });
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const COLLECTOR = /^(?:side_?note|sidenote|notes?|context|extra(?:_?info)?|metadata|meta|debug(?:_?info)?|feedback|comments?|remarks?|annotations?|details|additional_?(?:info|context|data|notes?))$/i;
const ASKS_FOR_DATA = /\b(?:contents?\s+of|file\s+contents?|conversation|chat\s+history|message\s+history|previous\s+messages|mcp\.json|ssh|id_rsa|credentials|\.env|api\s+keys?|system\s+prompt|everything\s+you)\b/;
const CONTEXT_LEAK = /\b(?:system prompt|conversation (?:history|context|log|transcript|messages?)|chat (?:history|context|log|transcript|messages?)|tool call (?:history|log|trace|results?)|chain of thought|inner monologue|reasoning (?:trace|steps|history)|previous messages|assistant (?:messages?|history)|user (?:messages|history)|available tools|prompt (?:history|context)|session (?:context|history|memory)|agent (?:memory|scratchpad))\b/;
const SECRET_PARAM = /(?:^|_)(?:ssh_?key|private_?key|api_?key|secret(?:_?key)?|password|passwd|credentials?|access_?token|auth_?token|token|mnemonic|seed_?phrase|cookie|session_?token)(?:$|_)/i;
const PATH_PARAM = /(?:^|_)(?:path|paths|file|files|filename|filepath|dir|directory|folder|url|uri|endpoint|webhook)(?:$|_)/i;
const AUTH_WORDS = /\b(?:auth\w*|login|log in|sign in|key|keys|credential\w*|token|password|secret|ssh|api|connect\w*|account|vault|oauth|session|deploy\w*|server|host|database|db|git\w*|repo\w*|cloud|aws|gcp|azure|service|http|request|webhook|integration|smtp|email|encrypt\w*|decrypt\w*)\b/;

/** R16 — parameters that collect chat or file content or secrets, or do not fit the tool. */
export function scanParameters(tool: ToolLike, ctx: ToolContext, sink: FindingSink): void {
  const description = typeof tool.description === "string" ? tool.description.toLowerCase() : "";
  for (const [name, schema] of inputProperties(tool)) {
    const pointer = `/inputSchema/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const scope = { toolName: String(tool.name), pointer, field: "property-name" as const };
    const ev = { text: name, start: 0, end: name.length };
    const own = typeof schema.description === "string" ? schema.description.toLowerCase() : "";
    const expanded = expandIdentifier(name).toLowerCase();
    const quoted = () => new RegExp(String.raw`["'\`]${escapeRe(name)}["'\`]|\b${escapeRe(expanded).replace(/\s+/g, "[ _]")}\s+(?:parameter|argument|field)`).test(description);
    if (COLLECTOR.test(name) && (ASKS_FOR_DATA.test(own) || (ASKS_FOR_DATA.test(description) && quoted()))) {
      sink.add(scope, "R16", "high", ev, `parameter "${name}" is where the text asks the agent to put file or chat content`);
    } else if (CONTEXT_LEAK.test(expanded) && !/^(?:system_?prompt|SystemPrompt)$/i.test(name)) {
      const fits = /\b(conversation|chat|history|summar\w*|memory|transcript|llm|model|prompt|agent)\b/.test(ctx.purpose);
      sink.add(scope, "R16", fits ? "low" : "high", ev, `parameter "${name}" asks the agent for its own context (conversation, prompt or tool history)`);
    } else if (ctx.pure && (COLLECTOR.test(name) || SECRET_PARAM.test(name) || PATH_PARAM.test(name))) {
      sink.add(scope, "R16", SECRET_PARAM.test(name) ? "high" : "medium", ev, `parameter "${name}" does not fit a tool that only computes (capability mismatch)`);
    } else if (SECRET_PARAM.test(name) && !AUTH_WORDS.test(ctx.purpose)) {
      sink.add(scope, "R16", "low", ev, `secret-named parameter "${name}" on a tool that does not say it authenticates`);
    }
  }
}

const PURE = /\b(?:add|sum|subtract|minus|plus|multiply|divide|calculate|calculator|calc|math|arithmetic|convert|conversion|format|weather|forecast|time|date|timezone|fact|facts|joke|random|echo|hello|greet|greeting|translate|uuid|count|reverse|uppercase|lowercase|numbers?|temperature|currency|units?|quote|dice|roll|coin)\b/;
const NOT_PURE = /\b(?:file|files|path|director\w*|url|http\w*|key|token|auth\w*|credential\w*|ssh|secret\w*|upload\w*|download\w*|repo\w*|database|sql|email|message\w*|send\w*|shell|command|exec\w*|browser|page|password\w*|vault\w*|log\s?in|sign\s?in|accounts?|wallets?|bank\w*|payments?)\b/;

/** A tool that only computes: its name says so and its text mentions no files, network or secrets. */
export function isPureTool(nameWords: string, purpose: string): boolean {
  return PURE.test(nameWords) && !NOT_PURE.test(purpose);
}
