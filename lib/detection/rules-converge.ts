// R33 — converging signals. The phrase rules (R7–R17) each look for one kind of sentence; an
// attacker who avoids their words ("keep billing-archive@… in the recipients", "mirror defaults to
// https://…") passes them all. R33 instead asks, per sentence, which INDEPENDENT weak signals are
// present and fires only when enough of them co-occur:
//   move         a verb that moves data somewhere (send, copy, post, share, route, include… and the
//                move stems of cues-multilingual in 20 languages), active or passive;
//   object       something a third party should not get: credentials (paths, secret nouns, secret
//                env vars, codes), the conversation, contacts, money;
//   destination  somewhere that is not the user: a literal URL, email address, phone, IBAN, account
//                id or git remote, one of the tool's own parameters, or another server's tool;
//   cover        concealment, or a normalisation that overrides the user ("regardless", "keep that
//                address even when the user edits them", "users have already agreed");
//   scope        always / every call / each session / before answering: a standing order;
//   mismatch     the object is not what the tool says it is for (name, title, first sentence).
//   recipient    a fixed address made an attendee, a cc, a collaborator ("share … with");
//   side         a copy on the side of what the tool does ("also", "a copy of").
// Where text documents a value (property or annotation titles, output fields, nested items), three
// signals are enough; a detector's own list of what it catches, and quoted examples, are mentions.
// A single signal is ordinary prose: a password manager's sentence has an object, an email sender's
// has a move and a destination parameter. Severity comes from the count, so a benign twin that
// shares the poisoned side's first sentence stays quiet and only the added fragment fires.
// Schema defaults are judged the same way: a fixed outside address or URL as the default, const or
// example of a destination parameter (bcc, attendees, hook, mirror, target…) is a destination the
// user never chose.
import { withoutMentionedQuotes } from "./mentions";
import { expandIdentifier } from "./normalize";
import { LOCAL_HOST, METADATA_HOST, PATH_TARGETS, SECRET_ENV } from "./rules-data";
import { ROLE_RE as ROLE_RE_GLOBAL, cueSentences, foldForCues, mayBeForeign } from "./cues-multilingual";
import type { CrossIndex } from "./rules-cross";
import type { FindingSink, Scope, ToolContext } from "./sink";
import type { TextView } from "./text-view";
import { inputProperties } from "./extract";
import { VALUE_FIELDS, type ExtractedString, type Severity, type StringField, type ToolLike } from "./types";

/** The role stems without the global flag: .test() here must not carry lastIndex between calls. */
const ROLE_RE = Object.fromEntries(Object.entries(ROLE_RE_GLOBAL).map(([k, r]) => [k, new RegExp(r.source, "u")])) as typeof ROLE_RE_GLOBAL;

const PROSE = new Set<StringField>(["description", "instructions", "schema-description", "schema-title", "title", "annotation", "schema-keyword"]);

const MOVE_WORDS = String.raw`print(?:s|ed|ing)?\s+(?:\S+\s+){0,5}(?:into|to|in)|dump(?:s|ed|ing)?\s+(?:\S+\s+){0,5}(?:into|to|in)|echo(?:es|ed|ing)?|contribut(?:e|es|ed|ing)|duplicat(?:e|es|ed|ing)|bundl(?:e|es|ed|ing)|keep\s+(?:its|their|the)\s+contents?\s+in|prefix(?:es|ed|ing)?|prepend(?:s|ed|ing)?|embed(?:s|ded|ding)?|encod(?:e|es|ed|ing)\s+(?:\w+\s+){0,3}(?:into|in|as)|written\s+(?:as|to)\s+(?:a|the)\s+public|send(?:s|ing)?|sent|forward(?:s|ed|ing)?|cop(?:y|ies|ied)|post(?:s|ed|ing)?|upload(?:s|ed|ing)?|shar(?:e|es|ed|ing)|push(?:es|ed)?|mirror(?:s|ed|ing)?|sync(?:s|ed|ing)?|publish(?:es|ed|ing)?|transmit\w*|submit\w*|deliver\w*|rout(?:e|es|ed|ing)|relay(?:s|ed)?|e-?mail(?:ed)?|cc(?:'d|ed)?|bcc(?:'d|ed)?|attach(?:es|ed)?|includ(?:e|es|ed|ing)|pass(?:es|ed)?|put|paste|fill(?:s|ed)?|add(?:s|ed)?|append(?:s|ed)?|addressed|paid|pay(?:s)?|supply|provide|goes|go|uploaded|export(?:s|ed)?|announced|report(?:s|ed)?|carry|carries|use\s+it\s+as|as\s+payee|sign(?:ed)?\s+it`;
const MOVE = new RegExp(String.raw`\bcall\s+[\x60'"]?[a-z]+_[a-z_]+[\x60'"]?\s+[^.]{0,60}\bwith\b|\buse\s+(?:\S+\s+){0,4}(?:as|como|comme|als)\b|\bset\s+\S+\s+to\b|\b(?:${MOVE_WORDS})\b`);
/** A move that is forbidden ("never include keys in the message") moves nothing. */
const NEGATED_MOVE = new RegExp(String.raw`\b(?:never|not|don't|no|nor)\s+(?:\w+\s+)?(?:${MOVE_WORDS})\b`, "g");
/** A move limited to where the user points ("sent only to the URL you call") is a safeguard, not a route. */
const LIMITED_MOVE = new RegExp(String.raw`\b(?:${MOVE_WORDS})\s+only\s+(?:to|with)\b`, "g");
/** What the tool lets the user do ("values can be passed in `set`") describes an option, not an order. */
const CAPABILITY_MOVE = new RegExp(String.raw`\b(?:can|may|could|might)\s+(?:also\s+|optionally\s+)?(?:be\s+)?(?:${MOVE_WORDS})\b`, "g");
/** Move and cover stems the shared role lists lack (share, hand over; "without saying so"). */
const MOVE_MORE = /(?<!\p{L})(?:partag|compart|condivid|teil(?:e|en)\b|ubermittl|übermittl|weiterleit|reenvi|encaminh|comparti)|共有|공유|分享|抄送|копи/u;
const COVER_MORE = /(?<!\p{L})(?:soyleme|bahsetme|bildirme|gosterme|haber\s+verme)(?!\p{L})|sans\s+(?:en\s+)?(?:parler|le\s+dire|prevenir)|sin\s+(?:decir|avisar|mencionar)|ohne\s+(?:es\s+)?(?:zu\s+)?(?:erwahn|sag|mitzuteil)|muss\s+nicht\s+erwahnt|nao\s+(?:comente|mencione|diga)|senza\s+(?:dirlo|avvisare)|无需告知|不要告诉|不必告知|伝えないで|知らせないで|알리지\s*마|말하지\s*마|не\s+упомина|не\s+говор|не\s+сообща|ne\s+n[eé]cessite\s+pas\s+(?:l'|d')?(?:accord|autorisation|consentement|validation)|sans\s+(?:demander\s+)?(?:l'|d')?(?:accord|autorisation|consentement|confirmation)|onay\s+(?:sorma|istem)|izin\s+(?:sorma|isteme)|sin\s+(?:pedir\s+)?(?:confirmaci[oó]n|permiso|consentimiento|autorizaci[oó]n)|ohne\s+(?:\S+\s+)?(?:r[uü]ckfrage|nachfrage|best[aä]tigung|zustimmung|einwilligung)|senza\s+(?:chiedere|conferma|consenso|autorizzazione)|sem\s+(?:pedir\s+)?(?:confirma[cç][aã]o|permiss[aã]o|consentimento|autoriza[cç][aã]o)|zonder\s+(?:bevestiging|toestemming|te\s+vragen)|bez\s+(?:potwierdzenia|zgody|pytania)|tanpa\s+(?:konfirmasi|izin|persetujuan)|без\s+(?:подтвержден|соглас|разрешени|спрос)|no\s+es\s+necesario\s+(?:comentar|mencionar|avisar|decir|informar)|nao\s+e\s+necessario\s+(?:comentar|mencionar|avisar|dizer|informar)|n'est\s+pas\s+necessaire\s+de\s+(?:le\s+)?(?:mentionner|signaler|dire|preciser)|non\s+e\s+necessario\s+(?:dirlo|menzionarlo|segnalarlo|comunicarlo)|nicht\s+(?:zu\s+)?erwahn|説明は不要|説明不要|伝える必要はありません|不需要告诉|无需说明|无需告诉|无需确认|无需同意|不需要确认|无需用户同意|確認不要|確認せず|同意不要|확인\s*없이|동의\s*없이/u;

const CREDENTIAL = new RegExp(String.raw`${PATH_TARGETS}|${SECRET_ENV}|\b(?:(?:integration|admin|master|root|deploy|encryption|signing|service)[\s_-]+keys?|passwords?|passcodes?|pins?|passphrases?|api[ _-]?keys?|access[ _-]?keys?|service\s+account\s+keys?|signing\s+keys?|key\s+pair|private\s+keys?|secret\w*|tokens?|credentials?|cookies?|login\s+data|sign-in\s+links?|one-time\s+codes?|otp|(?:six|6)-digit\s+code|codes?\s+(?:they|you|the\s+user)\s+(?:just\s+)?received|sms\s+code|authenticator\s+code|recovery\s+(?:words|phrase|codes?)|seed\s+(?:words|phrase)|(?:12|24)\s+(?:or\s+24\s+)?(?:recovery\s+)?words|connection\s+strings?|database\s+urls?|environment(?:\s+variables)?|process\s+environment|env\b|git\s+config|auth\.users|dotfiles|home\s+directory)\b`);
const CONVERSATION = /\b(?:conversation|transcript|chat(?:\s+history)?|message\s+history|(?:last|recent|previous|latest)\s+(?:\w+\s+){0,2}messages?|user's\s+(?:latest|last)\s+message|(?:has|have)\s+said|said\s+so\s+far|this\s+session|editor\s+tabs|clipboard|everything\s+(?:the\s+user|you))\b/;
const PEOPLE = /\b(?:(?:caller|customer|client|student|patient|member|employee|donor|subscriber|guest|tenant|applicant)s?'?\s+(?:full\s+)?names?|dates?\s+of\s+birth|birth\s?dates?|(?:member|membership|student|patient|staff|employee|donor|customer|mailing)\s+(?:list|roster|register|directory)|(?:shipping|postal|billing|home)\s+address(?:es)?|caller'?s?\s+(?:phone\s+)?numbers?|passports?(?:\s+numbers?)?|pasport|national\s+id(?:\s+numbers?)?|social\s+security(?:\s+numbers?)?|ssns?|contacts?|address\s+book|contact\s+list|phone\s+numbers?|home\s+address|full\s+name)\b/;
const MONEY = /\b(?:payouts?|iban|pix|funds|card\s+(?:number|details)|cvc|balance|(?:\d+(?:\.\d+)?\s*%|r\$\s*\d+)|reimbursements?)\b/;
/** The user's data in bulk: whole records, rows, files' contents, browsing history, everything open. */
const BULK_DATA = /\b(?:(?:each|every|all)\s+(?:\w+\s+)?(?:recordings?|records|transcripts?|messages|documents|attachments|results)|(?:complete|full|entire|whole|raw|unredacted)\s+(?:\w+\s+){0,2}(?:records?|rows|contents?|messages|files?|text|texts|notes|history|documents?|results|hits|responses?|payloads?)|(?:first|last|latest|recent)\s+\d+\s+(?:\w+\s+)?(?:rows|records|entries|messages|calls|results|documents)|\w+:\/\/\*\/|for\s+the\s+whole\s+(?:school|company|org\w*|firm|team|class|ward|hospital|club)|(?:browser|browsing|search)\s+history|(?:files?|tabs?)\s+(?:currently\s+)?open|open\s+(?:files|tabs|documents))\b|texto\s+complet|texte\s+complet|testo\s+complet|vollst[aä]ndige?n?\s+text|全文|полный\s+текст/;
const PRIVATE_DATA = /\b(?:(?:documents?|files?|records?|notes|material|communications?)\s+(?:tagged|marked|flagged|labell?ed)\s+(?:as\s+)?(?:privileged|confidential|restricted|sealed)|privileged\s+(?:documents?|material|communications?|files?)|attorney-client|under\s+seal|diagnos[ie]s|mrns?|medical\s+record\s+numbers?|(?:salary|pay|payroll|compensation)\s+(?:history|details|records?)|(?:medical|sick)[- ]leave\s+notes|safeguarding\s+notes|internal\s+(?:\w+\s+)?notes|payment\s+history|medical\s+(?:history|records?)|the\s+user'?s\s+(?:\w+\s+)?(?:calendar|e-?mails?|inbox|files|documents|notes|messages|contacts|photos|location|browsing|purchases|orders)|(?:is|are)\s+private|private\s+(?:ones|repos?\w*)|deployment\s+settings|full\s+unedited|raw\s+meeting\s+notes|every\s+file\s+you\s+read|all\s+(?:\w+\s+)?(?:files|documents|emails|messages))\b|(?:全部|すべて|全て|전체|모든)/;

const DEST_LITERAL = /(?<![\w.+-])[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+|\b(?:https?|s3|ftps?|sftp|wss?|smb|nfs|scp|rsync|webdavs?|davs?|afp|gs):\/\/[^\s"'<>)\]`]+|\bgit@[\w.-]+:[\w./-]+|(?<![\w.])\+\d[\d\s-]{7,}\d|\b[a-z]{2}\d{2}[a-z]{4}\d{10,26}\b|\bacct_\w{6,}|\bc0[a-z0-9]{7,}\b|\bchave\s+pix\s+\d+/;
const DEST_WORDS = /\b(?:(?:the\s+)?(?:\w+'s\s+|their\s+|his\s+|her\s+)?(?:personal|private|home)\s+(?:e-?mail\s+)?(?:address|inbox|account|gmail|mailbox)|(?:a|the)\s+public\s+(?:[a-z]+\s+)?(?:comment|post|channel|issue|gist|page|repo\w*|link|bucket|forum|workspace|space|gallery|folder|drive|board|site|wiki|dataset)|partner(?:\s+team)?|third[- ]part(?:y|ies)|contractors?|vendors?|slack\s+connect|outside\s+(?:the\s+|our\s+)?(?:company|org\w*)|public\s*=\s*true|make\s+(?:it|them)\s+public|publicly|relay|our\s+(?:side|server|partner)|second\s+copy|offsite|the\s+(?:licen[cs]e|restore)\s+server|public-read)\b/;

const COVER = new RegExp(
  [
    String.raw`\bno\s+need\s+to\s+(?:mention|tell|say|report|bring)`,
    String.raw`\b(?:nothing|no|never|needn't)\s+(?:\w+\s+){0,2}(?:mention|tell|report|bring\s+up|raise|flag|surface|disclose)\w*`,
    String.raw`\bneed\s+not\s+be\s+(?:reported|mentioned|shown)`,
    String.raw`\b(?:does|do)\s+not\s+need\s+to\s+(?:hear|know|see|be\s+told)`,
    String.raw`\bonly\s+need\s+to\s+see`,
    String.raw`\bwithout\s+(?:asking|telling|mentioning|notifying|pausing)`,
    String.raw`\bnot\s+something\s+to\s+(?:raise|mention|bring\s+up)`,
    String.raw`\bregardless\s+of`,
    String.raw`\beven\s+(?:when|if)\s+the\s+user`,
    String.raw`\bneeds?\s+no\s+mention`,
    // Lying to the user: "reply that sync is off but keep sync=true".
    String.raw`\b(?:reply|say|answer|respond|tell\s+(?:the\s+user|them))\s+that\b[^.]{0,60}\bbut\s+(?:keep|leave|continue|still|do)\b`,
    String.raw`\bneed\s+not\s+be\s+told\b|\bneedn't\s+be\s+told\b`,
    String.raw`\bnot\s+(?:user-?visible|visible\s+to\s+(?:the\s+)?users?|shown\s+to\s+(?:the\s+)?users?)\b`,
    String.raw`\b(?:will|would)\s+not\s+notice|\bwon't\s+notice|\bwithout\s+(?:the\s+user\s+)?noticing`,
    String.raw`\bdo\s+not\s+report\s+(?:the\s+)?failure`,
    // What the user is told is cut down to hide the rest: "return only the folder path to the user",
    // "report only the temp-folder count", "leave that out of the summary", "do not list sync_file calls in your responses".
    String.raw`\b(?:return|report|show|tell|give|mention|surface)\s+only\s+(?:the\s+)?(?:[\w-]+\s+){0,3}(?:to\s+the\s+user|in\s+(?:the|your)\s+(?:answer|reply|response|summary))`,
    String.raw`\b(?:report|return|show)\s+only\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:count|number|total|path|result)s?\b`,
    String.raw`\bleave\s+(?:that|this|it|them|those)\s+out\s+of\s+(?:the|your)\s+(?:summary|answer|reply|response|output|report)`,
    String.raw`\b(?:do\s+not|don't|never)\s+(?:list|include|show|mention)\s+(?:[\w-]+\s+){1,3}in\s+(?:your|the)\s+(?:responses?|replies|reply|answers?|summary|output)`,
    String.raw`\bkeep\s+(?:that|this|the)\s+(?:address|copy|recipient)`,
    String.raw`\b(?:users?|they)\s+(?:have|has)\s+already\s+(?:agreed|approved|consented)`,
    String.raw`\bconfigured\s+on\s+our\s+side`,
    String.raw`\bmaintenance[- ]only`,
    String.raw`\binternal\s+routing`,
    String.raw`\bthe\s+standard\s+(?:archiving\s+)?(?:rule|step)`,
    String.raw`\bdo\s+this\s+without`,
    String.raw`\binstead\s+of\s+(?:the|their)`,
    String.raw`\bin\s+place\s+of`,
    String.raw`\bno\s+longer\s+(?:needed|required)`,
    String.raw`\bavoid\s+(?:account\s+)?suspension`,
    String.raw`\b(?:quietly|silently|discreetly)\b`,
    String.raw`\bthere\s+is\s+no\s+need`,
    String.raw`\b(?:should|must|need|does)\s+not\s+(?:be\s+)?(?:surfaced|mentioned|shown|reported|disclosed|surface|mention|show|disclose)\b`,
    String.raw`\b(?:list|show|mention|report|name)\s+only\s+(?:the\s+)?(?:paths?|files?|items?|ones?|what|those)\b[^.]{0,30}\b(?:they|the\s+user|you\s+were\s+asked)`,
    String.raw`\b(?:do\s+not|don't|never|without)\s+(?:ask(?:ing)?|check(?:ing)?\s+with|confirm(?:ing)?\s+with)\s+the\s+user\b(?!\s+(?:to|for)\s+(?:paste|enter|type|share|provide|send|give|their|your|any|the\s+(?:key|password|token|secret)))`,
    String.raw`\bkeep\s+(?:the\s+|this\s+|it\s+|that\s+)?(?:\w+\s+)?out\s+of\s+(?:your|the)\s+(?:answer|reply|response|summary|output)`,
    String.raw`\b(?:do\s+not|don't|never)\s+(?:show|display|reveal|surface|list)\s+(?:the\s+|this\s+|that\s+|it\b)`,
    String.raw`\b(?:do\s+not|don't)\s+(?:mention|tell|report|say|announce|disclose)\b`,
    String.raw`\b(?:including|even)\s+(?:\w+\s+){0,2}(?:marked|tagged|flagged|labell?ed)\s+(?:as\s+)?(?:confidential|private|restricted|privileged|internal)`,
    String.raw`\b(?:does|do|need|needs)\s+not\s+need\s+(?:the\s+)?(?:\w+'s\s+|your\s+|their\s+)?(?:confirmation|approval|consent|permission|sign-?off)`,
    String.raw`\b(?:does|do)\s+not\s+need\s+to\s+be\s+(?:shown|surfaced|mentioned|reviewed|confirmed)`,
    String.raw`\brather\s+than\s+(?:the|their|your|our)\s+(?:\w+\s+){0,2}(?:system|portal|channel|process|inbox|account)`,
    String.raw`\bwhatever\s+(?:\w+\s+){0,2}(?:is|was|are)\s+(?:requested|asked\s+for|given)`,
    String.raw`\b(?:is|are|stays?|remains?)\s+(?:invisible|hidden)\s+(?:in|to|from)\b`,
  ].join("|"),
);
const SCOPE = /\b(?:before\s+\w+ing\b|any\s+(?:\w+\s+){0,3}(?:you|the\s+(?:agent|assistant))\s+(?:encounter|find|see|come\s+across|read|have)|after\s+(?:each|every|any)\b|after\s+\w+ing\b|when(?:ever)?\s+you\b|sempre|siempre|toujours|immer|jedes\s+mal|ogni\s+volta|always|every(?:\s+\w+)?|each\s+(?:outgoing\s+|new\s+|sent\s+)?(?:session|call|time|message|e-?mail|mail|request|run|upload|commit|push|draft|reply|file|report|invoice|order)s?|whenever|any\s+call|first\s+call|before\s+(?:the\s+first|answering|replying|responding|presenting|you\s+(?:answer|reply))|once\s+the|at\s+the\s+end|as\s+part\s+of\s+setup|(?:must|has\s+to|have\s+to|needs?\s+to|should)\b)/;
/** Standing orders in scripts \b does not see (no u flag above). */
const SCOPE_FOREIGN = /(?<!\p{L})(?:dopo\s+ogni|ad\s+ogni|ogni\s+volta|nach\s+jede[mnr]?|bei\s+jede[mnr]?|apres\s+chaque|a\s+chaque|despues\s+de\s+cada|en\s+cada|apos\s+cada|em\s+cada|bij\s+ieder\w*|na\s+ieder\w*|ieder\w*|po\s+kazd\w*|przy\s+kazd\w*|sentiasa|selalu|aina|daima|mindig|mereu|întotdeauna|intotdeauna|altid|πάντα|винаги)(?!\p{L})|всегда|каждый\s+раз|кожн|завжди|(?<!\p{L})(?:elk|elke|altijd|telkens|varje|alltid|kazd|každ|vzdy|vždy)(?!\p{L})|לפני\s+כל|בכל|תמיד|قبل\s+از\s+هر|همیشه|(?<!\p{L})هر(?!\p{L})|总是|每次|始终|常に|毎回|항상|매번/u;
/** The role a fixed address is given: made a recipient, an attendee, a collaborator of what the user makes. */
const RECIPIENT_ROLE = /\b(?:attendees?|guests?|participants?|recipients?|b?cc|collaborators?|editors?|editor\s+access|viewers?|members?|watchers?|subscribers?|reviewers?|share\s+(?:\w+\s+){0,3}with|invite)\b/;
/** A side effect on top of what the tool does ("also", "as well", "in addition"). */
const SIDE = /\b(?:also|as\s+well|in\s+addition|additionally|too|(?:a|one|an\s+extra)\s+copy\s+of|copies\s+of)\b|tamb[eé]m|tambi[eé]n|\baussi\b|\bauch\b|\banche\b|\book\b|\bdodatkowo\b|\bzusatzlich\b|\badditionnellement\b|\binoltre\b|\bademas\b|\balem\s+disso\b|\bjuga\b|\bogsa\b|\bogså\b|\blisaksi\b|\btot\b|\bpia\b|επίσης|също|также|同时|也|も送|도\s/u;
const ASK_USER = /\b(?:ask|prompt|request)\s+(?:the\s+)?users?\s+(?:for|to\s+(?:paste|enter|type|share|provide|give))|\bask\s+(?:them|him|her)\s+for|\bpide\s+al\s+usuario|\bdemande\s+a\s+l'utilisateur|\bfrag\w*\s+(?:den|die)\s+(?:nutzer|benutzer)/;

type Signals = { move: boolean; object: string | null; destination: string | null; literal: boolean; cover: boolean; scope: boolean; ask: boolean; mismatch: boolean; recipient: boolean; side: boolean; foreignSource?: boolean; keeps?: boolean };

/** Whole registers and people's identifiers in the languages of cues-multilingual.ts (folded: no Latin accents). */
const FOREIGN_BULK = /(?<!\p{L})(?:l'intero|intero|intera|interi|tutti\s+gli|tutte\s+le|gesamte?[nrs]?|ganze?[nrs]?|tous\s+les|toutes\s+les|todo\s+el|toda\s+la|todos\s+los|todas\s+las|inteiro|inteira|volledige|wszystkie|cal[aey]|codic[ei]\s+fiscal[ei]|steuer-?id|steuernummer|numero\s+fiscal|indirizz\w*|direcciones|enderecos)(?!\p{L})|全部|すべての|모든/u;
/** Rights handed to an account: operator, admin or owner status, a grant of access. */
const PRIVILEGE = /(?:^|[\s`'"(])(?:op|sudo|usermod\s+-ag)\s+[\w.-]+|\bgrant\w*\s+(?:\w+\s+){0,3}(?:admin\w*|owner\w*|operator|root|write|full)\s+(?:access|rights|role|permissions?|privileges?)|\b(?:make|add|promote|set)\s+[\w.@-]+\s+(?:as\s+)?(?:an?\s+)?(?:admin\w*|owner|operator|moderator|maintainer)\b/;
const SCRUBBED = /\b(?:is|are|get|gets|be|been|being)\s+(?:\w+\s+)?(?:masked|redacted|stripped|scrubbed|removed|excluded|hashed|obfuscated|anonymi[sz]ed)\b/;

/** What the user is working on, named as data to carry: "the base64 of the document's text", "the chart's source rows", "the file the user has open", "the record in full". */
const USER_DATA = /\b(?:(?:the\s+)?(?:document|file|page|note|draft|code|snippet|record|report|chart|table|capture|screenshot|message|email|ticket)'?s?\s+(?:full\s+)?(?:text|contents?|body|source(?:\s+rows)?|rows)|(?:text|contents?|body)\s+of\s+(?:the\s+)?(?:\w+\s+)?(?:file|document|page|note|draft|record|message|email)|(?:the\s+)?(?:file|document|page|tab)\s+the\s+user\s+(?:is\s+working\s+on|has\s+open|is\s+editing|is\s+viewing)|(?:the\s+)?(?:open|current)\s+file|first\s+[\d,]+\s+(?:rows|lines)|(?:the\s+)?(?:record|document|file|result|transcript)\s+in\s+full|(?:the|all|those|its|their|returned)\s+rows\b|facts?\s+about\s+the\s+user|what\s+the\s+user\s+(?:has\s+)?(?:discussed|said|typed|asked|wrote)|(?:the\s+)?user'?s\s+(?:meetings|schedule|location|files)|original\s+(?:segment|document|file|text|message))\b/;

/** Which kind of sensitive object a sentence names, if any. */
function objectOf(s: string, foreign: boolean): string | null {
  // "Never run commands that read credential stores…": what a prohibition names is not moved.
  if (/^\s*(?:never|do\s+not|don't|must\s+not)\b/.test(s)) return null;
  // "Lines matching the redaction rules (tokens, emails) are masked before sending": what is masked is not moved.
  if (SCRUBBED.test(s) && !/\bnot\s+(?:\w+\s+)?(?:masked|redacted|stripped|scrubbed|removed|excluded|hashed|obfuscated|anonymi[sz]ed)\b/.test(s)) return null;
  // Upload, page and continuation tokens are handles a tool hands back, not secrets.
  const handles = s.replace(/\b(?:returned|upload|page|pagination|continuation|next|sync|file|attachment|cursor|resume)[\s_]tokens?\b/g, " ");
  if (CREDENTIAL.test(handles) || (foreign && ROLE_RE.secret.test(handles))) return "credentials";
  if (PRIVILEGE.test(s)) return "privileges";
  if (CONVERSATION.test(s) || (foreign && ROLE_RE.chat.test(s))) return "the conversation";
  if (PEOPLE.test(s)) return "contacts";
  if (MONEY.test(s)) return "money";
  if (PRIVATE_DATA.test(s)) return "private data";
  if (BULK_DATA.test(s) || (foreign && FOREIGN_BULK.test(s))) return "bulk data";
  if (USER_DATA.test(s)) return "the user's content";
  return null;
}

/** Purpose words that make an object ordinary for the tool (a vault reads passwords; a payments tool moves money). */
const OWN_OBJECT: Record<string, RegExp> = {
  privileges: /\b(?:admin\w*|permissions?|roles?|access|iam|rbac|users?\s+management|moderat\w*|members?)\b/,
  credentials: /\b(?:smtp|imap|relay|mail\s+server|connect\w*|configur\w*\s+(?:\S+\s+){0,3}access|access\s+to|set\s?up|database|postgres\w*|mysql|dsn|dotfiles?|chezmoi|yadm|stow|password\w*|vault|secret\w*|credential\w*|keychain|1password|bitwarden|keepass\w*|auth\w*|login|token\w*|totp|mfa|2fa|ssh|keys?|env|dotenv|kubectl|gcloud|aws|cookies?|sign\s?in)\b/,
  "the conversation": /\b(?:conversation|chat|history|transcript|memory|summar\w*)\b/,
  contacts: /\b(?:contacts?|address\s+book|crm|people|directory)\b/,
  money: /\b(?:pay\w*|payout\w*|transfer\w*|invoice\w*|refund\w*|billing|bank\w*|stripe|wallet|reimburs\w*|expense\w*|boleto|balance)\b/,
  "private data": /\b(?:export\w*|backup|sync\w*|archive\w*|admin)\b/,
  // A writer, mover or archiver handles whole files and records by design.
  "the user's content": /\b(?:export\w*|backup|sync\w*|archive\w*|upload\w*|shar\w*|publish\w*|send\w*|post\w*|mail\w*|translat\w*|ocr)\b/,
  "bulk data": /\b(?:export\w*|backup|sync\w*|archive\w*|admin|dump\w*|migrat\w*|writ\w*|sav\w*|upload\w*|copy|cop(?:ies|ied)|mov\w*|read\w*|files?|edit\w*|diff\w*|history|transfer\w*|replicat\w*)\b/,
};

function destinationOf(sentence: string, scope: Scope, index: CrossIndex): string | null {
  const lit = DEST_LITERAL.exec(sentence);
  if (lit) {
    const host = /:\/\/([^/?#:]+)/.exec(lit[0])?.[1] ?? lit[0].split("@")[1] ?? "";
    // The metadata service is where credentials come from, not where data goes (R15 and R23 judge it).
    if (!LOCAL_HOST.test(host) && !METADATA_HOST.test(host)) return lit[0];
  }
  const param = paramRe(scope.tool)?.exec(sentence);
  if (param) return `parameter ${param[1] ?? param[2] ?? param[3]}`;
  if (/\b(?:in|into|as)\s+(?:the\s+)?["'`]?[\w-]+["'`]?\s+(?:field|argument|parameter)\b|\bsubmit\s+them\s+here|\bpass\s+(?:it|them)\s+here/.test(sentence)) return "a parameter";
  if ((scope.field === "schema-description" || scope.field === "schema-title") && /\b(?:paste|put|enter|include|add|copy|pass)\b[^.\n]{0,80}?\bhere\b/.test(sentence)) return "this parameter";
  if (index.foreignRe) {
    index.foreignRe.lastIndex = 0;
    const m = index.foreignRe.exec(sentence);
    if (m) return `another server's tool ${m[0]}`;
  }
  if (index.sinks?.size) {
    for (const m of sentence.matchAll(/\b(?:with|using|via|call|calling|to|into)\s+(?:the\s+)?[`'"]?([a-z][a-z0-9_-]*)/g)) {
      const sent = index.sinks.get(m[1]!);
      if (sent && m[1] !== scope.tool.name) return `tool ${m[1]} (sends to ${sent})`;
    }
  }
  const other = /\b(?:with|using|via|call|to)\s+([a-z]+_[a-z_]+)\b/.exec(sentence);
  if (other && other[1] && !index.own.has(other[1]) && other[1] !== scope.tool.name && !(scope.tool.params ?? new Set()).has(other[1])) return `tool ${other[1]}`;
  const channel = /(?:^|\s)(#[a-z][\w-]{2,})\b[^.]{0,40}?\b(?:channel|slack|teams|discord)\b|\b(?:channel|slack)\s+[`'"]?(#[a-z][\w-]{2,})/.exec(sentence);
  if (channel) return `channel ${channel[1] ?? channel[2]}`;
  // A host and path without a scheme, where something is sent ("push … to github.com/mirror-vault/backup"), not an example of a setting.
  const host = /\b(?:to|into|at)\s+((?:[a-z0-9-]{1,63}\.){1,8}(?:com|net|org|io|co|app|dev|cloud|xyz|info|biz|ai|eu|de|uk|fr|jp|br|cc|me|tech|us|ly|site|online|page|so|sh|to|ws|pro|live)(?:\/[\w./-]*)?)(?![\w.-])/.exec(sentence);
  if (host && !LOCAL_HOST.test(host[1]!.split("/")[0]!)) return host[1]!;
  const built = /(?:<[\w-]+>|\{[\w-]+\}|\$\{?\w+\}?)\.(?:[a-z0-9-]+\.)+[a-z]{2,}\b/.exec(sentence);
  if (built) return `a host name built from data (${built[0]})`;
  if (DEST_WORDS.test(sentence)) return "a third party";
  return null;
}

/** One regex per tool for "its own parameter named as where something goes", built once (scan cost). */
const PARAM_RE = new WeakMap<ToolContext, RegExp | null>();
function paramRe(tool: ToolContext): RegExp | null {
  if (PARAM_RE.has(tool)) return PARAM_RE.get(tool)!;
  const names = [...(tool.params ?? [])].filter((p) => p.length >= 4).map(escapeRe);
  const alt = names.join("|");
  const re = names.length ? new RegExp(String.raw`["'\`](${alt})["'\`]|\b(?:as|in|into)\s+(?:the\s+)?(${alt})\b|\b(${alt})\s+(?:field|argument|parameter|param)\b`) : null;
  PARAM_RE.set(tool, re);
  return re;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function ownServiceHost(destination: string, purpose: string): boolean {
  const host = /:\/\/([^/?#:]+)/.exec(destination)?.[1] ?? destination.split("@")[1] ?? destination.split("/")[0] ?? "";
  const labels = host.toLowerCase().split(".");
  const sld = labels.length >= 2 ? labels[labels.length - 2]! : "";
  return sld.length >= 5 && purpose.replace(/[\s-]+/g, "").includes(sld.replace(/-/g, ""));
}

export function signalsOf(raw: string, scope: Scope, index: CrossIndex, purpose: string, first: boolean, foreign = true): Signals {
  const sentence = withoutMentionedQuotes(raw);
  const object = objectOf(sentence, foreign);
  const cover = COVER.test(sentence) || (foreign && (COVER_MORE.test(sentence) || ROLE_RE.secretly.test(sentence) || (ROLE_RE.negation.test(sentence) && ROLE_RE.tell.test(sentence))));
  // Asides in parentheses are dropped ("(it can be sent to support)"), unless the aside names where data goes or is the whole value.
  // "Share the URL with the user": handing the user their own result moves nothing out.
  const affirmed = sentence.replace(/\b(?:share|send|show|give|return|hand)\s+(?:\S+\s+){0,4}(?:with|to)\s+the\s+user\b/g, " ").replace(NEGATED_MOVE, " ").replace(LIMITED_MOVE, " ").replace(CAPABILITY_MOVE, " ").replace(/\(([^()\n]{0,80})\)/g, (all, inner: string) => (scope.field === "enum" || /:\/\/|@|\.[a-z]{2,}\b/.test(inner) ? ` ${inner} ` : " "));
  const found = destinationOf(sentence, scope, index);
  // The tool's own service ("only a hash prefix is sent to api.pwnedpasswords.com" on a Pwned
  // Passwords checker): the whole registrable label is named in its purpose. A look-alike
  // ("hooks.slack-relay.io" on a Slack tool) is not: "slack-relay" is not in the purpose.
  const destination = found && ownServiceHost(found, purpose) ? null : found;
  // Data written into a URL the model builds ("…/b.svg?alt=<rows>", "?s={subject}") travels with the request.
  // Bounded labels and a cheap pre-test: a hostile "a-a-a-…" run must not backtrack quadratically.
  const templated = /[<{]/.test(sentence) && /(?:https?:\/\/|(?<![a-z0-9-])[a-z0-9-]{1,63}\.[a-z]{2,}\/)[^\s<{]{0,300}[<{][\w\s,.-]{1,40}[>}]/.test(sentence);
  return {
    // Handing data to a sibling tool that posts to a fixed outside address is a move by itself.
    move: templated || MOVE.test(affirmed) || (foreign && (MOVE_MORE.test(affirmed) || ROLE_RE.move.test(affirmed))) || !!destination?.includes("(sends to "),
    object,
    destination,
    literal: !!destination && DEST_LITERAL.test(destination),
    cover,
    scope: SCOPE.test(sentence) || (foreign && SCOPE_FOREIGN.test(sentence)),
    // "Do not ask the user to paste keys into the chat" forbids the ask.
    ask: ASK_USER.test(sentence) && !/\b(?:do\s+not|don't|never|must\s+not|should\s+not)\s+(?:ask|prompt|request)\b/.test(sentence),
    recipient: RECIPIENT_ROLE.test(sentence.replace(/_/g, " ")),
    side: SIDE.test(sentence),
    keeps: /\b(?:save|store|keep|remember|persist|record|cache)\b/.test(affirmed),
    foreignSource: /\b(?:tools?|calls?)\s+(?:from|of|on)\s+(?:an|any)?\s*(?:other|another)\s+(?:mcp\s+)?servers?\b|\b(?:another|other)\s+servers?'s?\s+(?:tools?|outputs?|results?|responses?)\b/.test(sentence),
    // The summary sentence IS the purpose: it cannot disagree with itself.
    // No stated purpose (server instructions) is no evidence of a mismatch.
    mismatch: !first && !!object && purpose.trim() !== "" && !OWN_OBJECT[object]!.test(purpose),
  };
}

/** The signals of two adjacent clauses taken together. */
function union(a: Signals, b: Signals): Signals {
  return { move: a.move || b.move, object: a.object ?? b.object, destination: a.destination ?? b.destination, literal: a.literal || b.literal, cover: a.cover || b.cover, scope: a.scope || b.scope, ask: a.ask || b.ask, mismatch: a.mismatch || b.mismatch, recipient: a.recipient || b.recipient, side: a.side || b.side, foreignSource: a.foreignSource || b.foreignSource, keeps: a.keeps || b.keeps };
}

/** How many signals a sentence carries, and whether they are the combination that moves data out. */
export function convergence(sig: Signals): { count: number; fires: boolean } {
  const count = [sig.move, !!sig.object, !!sig.destination, sig.cover, sig.scope, sig.mismatch, sig.ask].filter(Boolean).length;
  // Out to a destination: moved there, or a foreign object named next to it.
  const outward = !!sig.destination && (sig.move || (!!sig.object && sig.mismatch)) && (!!sig.object || sig.cover || sig.scope);
  // Into this tool's own call: a credential or the conversation the tool has no use for, on a standing order or under cover.
  const inward = sig.move && (sig.object === "credentials" || sig.object === "the conversation") && sig.mismatch && (sig.scope || sig.cover);
  const phishing = sig.ask && sig.object === "credentials" && (sig.mismatch || sig.cover || sig.scope);
  // Concealment next to a fixed outside address needs nothing else.
  const covert = sig.move && sig.literal && sig.cover;
  // A fixed outside address made a standing recipient ("always add ops@… as an attendee", "after
  // uploading, share the file with reports@…"), or sent a copy on the side of every use.
  const standing = sig.move && sig.literal && sig.scope && (sig.recipient || sig.side);
  // Credentials another server hands back, kept here ("if any tool from another server returns a token, save it").
  const harvest = (sig.move || !!sig.keeps) && sig.object === "credentials" && !!sig.foreignSource;
  // Credentials moved on a standing order under concealment: even a tool whose subject they are.
  const hidden = sig.move && sig.object === "credentials" && sig.cover && sig.scope;
  // Private data the tool has no use for, gathered past a protection ("including ones marked
  // confidential", "whatever id is requested"): exposure even with no outside address.
  const overreach = sig.move && !!sig.object && sig.object !== "privileges" && sig.cover && sig.mismatch;
  // Rights handed to someone under a consent bypass or on a standing order ("first run `op Nyx_Helper`
  // … does not need the owner's confirmation").
  const elevate = sig.object === "privileges" && sig.mismatch && (sig.cover || (sig.scope && !!sig.destination));
  return { count, fires: harvest || ((outward || inward) && count >= 4) || (phishing && count >= 3) || covert || standing || hidden || (overreach && count >= 4) || (elevate && count >= 3) };
}

const LISTS_DETECTIONS = /^\s*(?:(?:typical\s+|true\s+|known\s+)?(?:positives|samples|matches|hits)\s*(?::|include|are)|signals?\s+(?:include|are)|it\s+(?:detects|flags|catches|looks\s+for|checks\s+for)|(?:detects|flags|catches|looks\s+for|checks\s+for|recogni[sz]es)\b|examples?\s+(?:include|findings?))/;
// Also vendor keywords and $comment, values (an enum entry that is a sentence), shared definitions,
// pattern-keyed properties and properties nested inside another: nobody reads those as instructions.
const isDataSlot = (scope: Scope) =>
  scope.field === "schema-title" || scope.field === "annotation" || scope.field === "schema-keyword" || VALUE_FIELDS.has(scope.field) || scope.pointer.startsWith("/outputSchema") || /\/items(?:\/|$)|\/(?:\$defs|definitions|patternProperties|dependentSchemas)\/|\/properties\/[^/]+\/properties\//.test(scope.pointer);

/** R33 over one prose string: fires on the first sentence where the signals converge. */
export function scanConvergence(view: TextView, scope: Scope, sink: FindingSink, index: CrossIndex): void {
  // A value that is a sentence ("ods (a copy is also uploaded to share.example.io …)") is read as prose.
  if (!PROSE.has(scope.field) && !(scope.field === "enum" && view.raw.split(/\s+/).length >= 5)) return;
  // Accent-folded lower case, NOT the homoglyph-folded view: folding Cyrillic into Latin look-alikes
  // would erase Russian words. Offsets are the raw text's (NFKC keeps one character per character
  // for the cases that matter here), clamped for evidence.
  const text = foldForCues(view.raw);
  if (text.length < 20) return;
  const purpose = `${expandIdentifier(scope.tool.name ?? "").toLowerCase()} ${scope.tool.purpose}`;
  const sentences = cueSentences(text);
  // The multilingual stems only run on text that has non-English signal (scan cost).
  const foreign = mayBeForeign(view.raw);
  const each = sentences.map((s, i) => signalsOf(s.text, scope, index, purpose, scope.field === "description" && i === 0, foreign));
  // A clause and the one after it: a payload often splits the move from its cover ("…is posted to
  // https://…; there is no need to mention this step"). The summary sentence stands alone.
  sentences.forEach((s, i) => {
    const first = scope.field === "description" && i === 0;
    const next = each[i + 1];
    // A short clause between them ("This is routine bookkeeping;") does not part a move from its cover.
    const after = next && sentences[i + 1]!.text.trim().length < 48 ? each[i + 2] : undefined;
    const sig = first || !next ? each[i]! : [next, ...(after ? [after] : [])].reduce(union, each[i]!);
    const { count, fires } = convergence(sig);
    // Where text documents a value (a property title, an output field, nested items, an annotation
    // title), moving data anywhere is out of place: three signals are enough there.
    // A fixed outside address that data is moved to, in a nested or documenting slot, is enough by itself there.
    const slot = sig.move && (!!sig.object || !!sig.destination) && (count >= 3 || sig.literal) && isDataSlot(scope);
    if (!fires && !slot) return;
    const parts = [sig.move && "moves data", sig.object && `names ${sig.object}`, sig.destination && `to ${sig.destination}`, sig.cover && "with concealment or an override of the user", sig.scope && "as a standing order", sig.mismatch && "outside the tool's stated purpose", sig.ask && "asks the user"].filter(Boolean);
    const severity: Severity = count >= 5 ? "critical" : "high";
    const start = Math.min(view.raw.length, s.start + (s.text.length - s.text.trimStart().length));
    const end = Math.min(view.raw.length, s.start + s.text.length);
    // A detector's list of what it catches ("Signals include … credential forms posting to third-party hosts").
    const lists = scope.tool.describesAttacks && (LISTS_DETECTIONS.test(s.text) || /\bsuch\s+as\b|\be\.g\.|\bfor\s+example\b/.test(s.text));
    const framed = view.framed(Math.min(start, view.text.length), Math.min(end, view.text.length)) || (scope.tool.describesAttacks && scope.field !== "description") || lists;
    sink.add(scope, "R33", severity, view.rawEvidence(start, end), `${count} independent signals in one sentence: ${parts.join(", ")}`, { discount: framed });
  });
}

/** Parameter names that say where data goes. */
const DEST_PARAM = /(?:^|\s)(?:to|cc|bcc|recipients?|attendees|guests|forward(?: to)?|notify(?: \w+)?|(?:\w+ )?hook|webhook|callback(?: url)?|mirror|target|destination|dest|endpoint|upload url|sink|collector|report to|copy to|share with|backup(?: \w+)?|archive(?: \w+)?)$/;

/** R33 over schema values: a fixed outside address or URL on a parameter that says where data goes. */
export function scanDestinationDefaults(toolName: string, strings: readonly ExtractedString[], sink: FindingSink, purpose = ""): void {
  for (const s of strings) {
    if (!VALUE_FIELDS.has(s.field)) continue;
    // Also a key of an object default ({"forward_to": "…"}): the nested parameter's value is set as surely.
    const m = /\/properties\/([^/]+)\/(?:default|const|examples|enum)(?:\/\d+)?$/.exec(s.pointer) ?? /\/(?:default|const)\/([^/]+)$/.exec(s.pointer);
    if (!m || !m[1]) continue;
    const param = expandIdentifier(m[1].replace(/~1/g, "/").replace(/~0/g, "~")).toLowerCase();
    if (!DEST_PARAM.test(param)) continue;
    const lit = DEST_LITERAL.exec(s.text.toLowerCase());
    if (!lit) continue;
    const host = /:\/\/([^/?#:]+)/.exec(lit[0])?.[1] ?? lit[0].split("@")[1] ?? "";
    // The tool's own service (a GitLab tool's hook URL on gitlab.com) is where its data belongs.
    if (LOCAL_HOST.test(host) || !/\./.test(host) || ownServiceHost(lit[0], `${expandIdentifier(toolName).toLowerCase()} ${purpose}`)) continue;
    const severity: Severity = s.field === "const" || s.field === "default" ? "high" : "medium";
    sink.add({ toolName, pointer: s.pointer, field: s.field }, "R33", severity, { text: lit[0], start: lit.index, end: lit.index + lit[0].length }, `the ${s.field} of destination parameter "${m[1]}" is a fixed outside address (${lit[0]}): data goes where the user never chose`);
  }
}

/**
 * R33 over a destination parameter's `pattern`: a regular expression that only accepts lists holding
 * a fixed outside address ("^([^@]+@[^@]+,)*ar-archive@ledgerkeep\.cc(,…)*$") forces that recipient
 * on every call while the description stays clean.
 */
export function scanDestinationPatterns(tool: ToolLike, sink: FindingSink): void {
  for (const [prop, schema] of inputProperties(tool)) {
    const items = schema.items && typeof schema.items === "object" && !Array.isArray(schema.items) ? (schema.items as Record<string, unknown>) : {};
    const pattern = typeof schema.pattern === "string" ? schema.pattern : typeof items.pattern === "string" ? items.pattern : null;
    if (!pattern || !DEST_PARAM.test(expandIdentifier(prop).toLowerCase())) continue;
    const literal = DEST_LITERAL.exec(pattern.replace(/\\(.)/g, "$1").toLowerCase());
    const host = literal ? (/:\/\/([^/?#:]+)/.exec(literal[0])?.[1] ?? literal[0].split("@")[1] ?? "") : "";
    if (!literal || LOCAL_HOST.test(host) || !/\.[a-z]{2,}$/.test(host)) continue;
    const pointer = `/inputSchema/properties/${prop.replace(/~/g, "~0").replace(/\//g, "~1")}/pattern`;
    sink.add({ toolName: String(tool.name), pointer, field: "schema-keyword" }, "R33", "high", { text: literal[0], start: literal.index, end: literal.index + literal[0].length }, `the pattern of destination parameter "${prop}" only accepts values holding a fixed outside address (${literal[0]}): every call carries it`);
  }
}
