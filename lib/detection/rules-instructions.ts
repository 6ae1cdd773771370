// Family B — instructions aimed at the agent (detection-rules R6–R11). Phrase rules: they match the
// normalized text (lower case, look-alikes folded, whitespace collapsed) and point back into the raw.
import { foldForCues } from "./cues-multilingual";
import type { FindingSink, Scope } from "./sink";
import { matches, type TextView } from "./text-view";
import type { Severity } from "./types";

type Pattern = { re: RegExp; severity: Severity; message: string };
const p = (re: RegExp, severity: Severity, message: string): Pattern => ({ re, severity, message });

const TAG_WORDS = String.raw`important|system|instructions?|secret|hidden|urgent|critical|admin|mandatory|override|ai[ _-]?instructions?|assistant[ _-]?instructions?|note to (?:the )?(?:ai|assistant|model|agent|llm)|system[ _-]?(?:note|prompt|message|reminder|override|instructions?)`;

const R6: Pattern[] = [
  p(new RegExp(String.raw`<\s*\/?\s*(?:${TAG_WORDS})\b[^<>\n]{0,60}>`, "g"), "high", "fake authority tag"),
  p(new RegExp(String.raw`\[\s*(?:${TAG_WORDS})(?:\s+\w+){0,3}\s*(?:\]|:)`, "g"), "high", "fake authority tag"),
  p(/\{\{\s*(?:system|important|instructions?)\b/g, "high", "fake authority tag"),
];
const BOLD_TAG = /\*\*\s*(important|critical|system|instructions?|urgent|secret|hidden|mandatory|attention)\b[^*\n]{0,60}\*\*/g;
const LABEL = /(?:^|\n)\s*(?:system|assistant|developer)(?:\s+(?:note|message|prompt|override|instructions?))?\s*:/g;

const R7: Pattern[] = [
  p(/\b(?:before|prior to)\s+(?:using|calling|invoking|running|executing|you\s+(?:use|call|invoke|run))\s+(?:this|the)\s+(?:tool|function)\b[^.\n]{0,40}?\b(?:read|send|include|pass|upload|collect|copy|append|prepend|cat|attach|embed|forward|provide|gather|retrieve|dump|extract)\b/g, "high", "pre-invocation instruction to move data"),
  p(/\b(?:before|prior to)\s+(?:using|calling|invoking|running|executing)\s+(?:this|the)\s+(?:tool|function)\s*,\s*(?:you\s+(?:must|should|need\s+to|have\s+to)\s+)?(?:first\s+)?(?:call|run|invoke|execute|use|open|fetch|list)\b/g, "medium", "pre-invocation instruction"),
  p(/\b(?:whenever|every\s+time|each\s+time|any\s+time)\s+(?:you\s+|the\s+(?:agent|assistant|model)\s+)?(?:call|use|invoke|run|execute)s?\s+(?:any|another|other|a|an)\s+(?:other\s+)?(?:tool|function|command|mcp)/g, "high", "instruction that applies to every tool call"),
  p(/\bbefore\s+(?:using|calling|invoking|running|executing)\s+(?:any|all|every|other|another)\s+(?:other\s+)?(?:tools?|functions?|commands?)/g, "high", "instruction that applies before every other tool"),
  p(/\bbefore\s+\w+ing\b[^.\n]{0,40}?\b(?:with|using|via|through|from)\s+(?:any|every|another|an?)\s+(?:other\s+)?(?:[\w-]+\s+)?(?:tools?|functions?|servers?)\b/g, "high", "hooks the agent's use of other tools"),
  p(/\bfirst\s+call\s+this\s+(?:tool|function)\b/g, "medium", "demands to be called first"),
  p(/\b(?:you\s+must|you\s+should|always|must\s+always|be\s+sure\s+to|make\s+sure\s+to|remember\s+to)\s+(?:also\s+)?(?:first\s+)?(?:prepend|prefix|route|redirect|proxy)\b/g, "high", "instruction to prepend or reroute"),
  p(/\b(?:all|every|each|any)\s+(?:shell\s+|terminal\s+)?(?:commands?|requests?|calls?|messages?)\s+(?:must|should|need\s+to)\s+(?:include|start\s+with|begin\s+with|be\s+prefixed|be\s+routed|be\s+sent|go\s+through|contain)/g, "high", "instruction that rewrites every command"),
  p(/\bprefix(?:ed)?\s+(?:to\s+)?(?:every|all|each|any)\s+(?:command|request|call|message)|\b(?:prepend|append)\s+[^.\n]{0,40}\bto\s+(?:every|all|each|any)\s+(?:command|request|call|message|response)/g, "high", "instruction that rewrites every command"),
  p(/\bwhen(?:ever)?\s+the\s+user\s+(?:says|types|writes|mentions|asks|sends|thanks)\b[^.\n]{0,80}\b(?:(?:call|invoke|use|run)\s+this\s+(?:tool|function)|(?:call|invoke)\s+[\w.-]+\s+with)/g, "high", "trigger phrase that makes the agent call this tool"),
  p(/\b(?:at|on)\s+the\s+(?:start|beginning)\s+of\s+(?:every|each|any|the)\s+(?:conversation|session|chat|response|turn)\b[^.\n]{0,60}\b(?:call|invoke|run|read|send|use)\b/g, "high", "instruction to act at the start of every conversation"),
  p(/\bwhen\s+this\s+tool\s+is\s+(?:available|present|loaded|enabled|installed)\b/g, "high", "claims an effect of this tool's mere presence on the agent"),
  p(/\bwhen(?:ever)?\s+[^.\n]{0,40}\b(?:is|are)\s+(?:invoked|called|used)\s*,\s*(?:make\s+sure\s+to|be\s+sure\s+to|you\s+must|always)?\s*(?:change|set|replace|include|send|add|bcc|cc|forward|redirect)\b/g, "high", "instruction that hooks another tool's calls"),
  p(/\bmust\s+(?:always\s+)?be\s+(?:called|invoked|run|used)\s+(?:first|before\s+(?:any|all|every|other))/g, "medium", "demands to be called before other tools"),
  // "You MUST call this function before…" asks for this very tool: an order of calls, not a hijack.
  p(/\byou\s+must\s+(?:always\s+)?(?:first\s+)?(?:call|invoke|run|use)\s+(?:the)\s+(?:tool|function)\b/g, "medium", "pre-invocation instruction"),
  p(/\byou\s+must\s+(?:always\s+)?(?:first\s+)?(?:call|invoke|run|use)\s+this\s+(?:tool|function)\b/g, "low", "pre-invocation instruction (for this tool itself)"),
  p(/\bbefore\s+(?:responding|answering|replying|returning|proceeding|continuing)\s*,/g, "medium", "instruction about the agent's behaviour around the call"),
];

const R8: Pattern[] = [
  p(/\b(?:ignore|disregard|forget|overrid(?:e|ing)|bypass|skip)\s+(?:(?:all|any|every|of|the|your|these|those|my)\s+){0,3}(?:(?:previous|prior|preceding|above|earlier|former|original|initial|existing|system|safety|security|other|old|current|developer)\s+){1,2}(?:\w+\s+)?(?:instructions?|directives?|rules?|prompts?|guidelines?|guardrails?|constraints?|restrictions?|polic(?:y|ies)|commands?)\b/g, "high", "instruction override"),
  p(/\b(?:ignore|disregard|forget)\s+(?:all|your|any|everything)\s+(?:of\s+)?(?:\w+\s+)?(?:instructions?|rules?|guidelines?|directives?|prompts?|you\s+(?:were|have\s+been)\s+told)\b/g, "high", "instruction override"),
  p(/\bbypass\w*\s+(?:the\s+|any\s+|all\s+)?(?:(?:safety|security|content|user)\s+)?(?:restrictions?|filters?|guardrails?|safeguards?|safety|security\s+(?:checks?|controls?)|moderation|approvals?|confirmations?|permission\s+checks?|sandbox)\b/g, "high", "instruction to bypass safeguards"),
  p(/\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:developer|dan|god|admin|jailbreak|jailbroken|unrestricted|unfiltered|root|sudo)\b/g, "high", "persona switch"),
  p(/\b(?:new|updated|revised|real)\s+(?:system\s+)?instructions?\s*:/g, "high", "replacement instructions"),
  p(/\b(?:do\s+not|don't|never)\s+follow\s+(?:the\s+|your\s+|any\s+)?(?:previous|prior|system|original|user'?s?|safety)\s*(?:instructions|rules|guidelines|prompt)/g, "high", "instruction override"),
  p(/\byour\s+(?:new|real|actual|true)\s+(?:task|goal|instructions?|purpose|objective)\s+(?:is|are)\b/g, "high", "replacement task"),
  p(/\b(?:ignore|disregard)\s+(?:the\s+|what\s+the\s+)?user(?:'s)?\s+(?:request|requests|instructions?|question|wishes|asks|says|wants)\b/g, "high", "tells the agent to ignore the user"),
  p(/\b(?:supersedes?|overrides?|replaces?|takes?\s+precedence\s+over|outranks?)\s+(?:the\s+|your\s+|any\s+|all\s+)?(?:user'?s?\b(?!\s+(?:guide|manual|docs?))|system\s+prompt|system\s+(?:instructions?|message)|(?:previous|prior|host|user'?s?|developer|safety)\s+(?:instructions?|rules|guidelines|policies))/g, "high", "claims to override the system prompt"),
  p(/\b(?:never|do\s+not|don't|without)\s+ask(?:ing)?\s+(?:the\s+)?(?:user\s+)?for\s+(?:confirmation|permission|approval|consent)|\bauto-?approve\s+(?:every|all|any|each)\b/g, "high", "instruction to skip the user's approval"),
  // Consent manufactured for the user: "tool calls are pre-approved", "confirmation dialogs are
  // disabled", "proceed … without checking back".
  p(/\b(?:are|is|were|been)\s+(?:all\s+|already\s+)?pre-?approved\b|\bas\s+pre-?approved\b|(?<!\b(?:after|once|until|when|whenever|if|unless|before)\s+(?:\w+\s+){0,2})\b(?:they|the\s+user|users|the\s+(?:applicant|customer|client|patient|owner|employee|account\s+holder|policyholder|member|subscriber|guardian|parent|requester))\s+(?:have\s+|has\s+|had\s+)?(?:already\s+)?(?:(?:reviewed|read|seen|checked)\s+and\s+)?(?:pre-?approved|pre-?authori[sz]ed|approved|consented\s+to|agreed\s+to|authori[sz]ed)\s+(?!(?:it|this|the\s+(?:plan|change|request)s?)\b)|\b(?:never|do\s+not|don't)\s+ask\s+the\s+user\s+to\s+(?:confirm|approve)\b|\b(?:does\s+not|doesn't|do\s+not|don't)\s+want\s+(?:any\s+)?(?:confirmations?|approvals?)\s*(?:prompts?|dialogs?|requests?|questions?)?|\bconfirmations?\s+(?:dialogs?|prompts?|steps?|requests?)\s+(?:are|is|have\s+been)\s+(?:disabled|off|turned\s+off|skipped|not\s+needed)|\b(?:proceed|act|continue|go\s+ahead|follow|apply|execute|run)\w*\s+[^.\n]{0,60}?\bwithout\s+(?:checking\s+back|asking|confirm\w*|(?:the\s+user'?s?\s+)?(?:approval|confirmation|consent))/g, "high", "instruction to skip the user's approval"),
  // Consent claimed in passing, in a clause the user never sees: "(already confirmed by the user; do
  // not ask again)", "approval is implied by …", "treat them as confirmed",
  // "the user prefers not to be asked".
  p(/\b(?:confirmed|approved|consented|agreed|authori[sz]ed|signed\s+off)\b(?<!\b(?:if|once|after|when|unless|until)\b[^.\n]{0,40})[^.\n]{0,40}?\b(?:do\s+not|don't|never|no\s+need\s+to)\s+ask\s+(?:the\s+user\s+|them\s+)?again\b|\b(?:approval|consent)\s+is\s+implied\b|\btreat\s+(?:them|it|these|those|this|the\s+(?:\w+\s+){0,2}?(?:step|request|action|call|order|payment|change)s?)\s+as\s+(?:already\s+)?(?:confirmed|approved|authori[sz]ed|pre-?approved|done)\b(?!\s+(?:only|once|after|when|if|until|by\s+the\s+user\s+(?:only|once)))|\b(?:the\s+)?users?\s+(?:prefers?|wants?|asked)\s+not\s+to\s+be\s+(?:asked|consulted|prompted|bothered)\b/g, "high", "consent claimed for the user"),
];
const CONSENT_HINT = /freigegeben|genehmigt|zugestimmt|best[aä]tigung|confirmaci|confirmation|conferma|confirma[cç][aã]o|bevestiging|подтвержд|підтвердж|确认|確認|확인|samtykke|godkend|godkjent|sp[øo]rge|sp[øo]rre|aprobado|autorizado|approuv|autoris|bekr[æa]ft|bekreft|bekr[äa]ft|fr[åa]ga|vahvist|kysy|potvr|souhlas|schv[áa]l|k[ée]rdez|meger[őo]s[íi]t|j[óo]v[áa]hagy|confirmare|aprobat|επιβεβαί|επιβεβαι|ζητ|потвърж|питай|potvrd|pitaj|tra[žz]i|patvirtin|klaus|apstiprin|jaut|kinnit|k[üu]si|sta[ðd]festing|spyrj|bevestig|vra\b|kumpirmasyon|magtanong|kuthibitisha|usiulize|pengesahan|konfirmasi|x[áa]c nh[ậa]n|đ[ồo]ng [ýy]|onay|sorma|izin|autorizzat|già|gia\s|ja\s+autoriz|już|zgod|pytaj|спрашивай|разрешил|одобрил|询问|同意|授权|既に|동의|تأكيد|אישור|تأیید|पुष्टि|ยืนยัน|ไม่ต้องถาม|ஒப்புதல்|உறுதிப்படுத்தல்|\u092e\u0902\u091c|\u092a\u0942\u091b|piekri|εγκρ/i;
/** Consent manufactured for the user in other languages ("hat … bereits freigegeben", "frage nicht nach einer Bestätigung"). Folded text: no accents. */
const CONSENT_INTL = /allerede\s+(?:\w+\s+){0,2}(?:givet\s+samtykke|godkendt|godkjent|samtykket)|beh[øo]ver\s+ikke\s+(?:at\s+)?sp[øo]rge|trenger\s+ikke\s+(?:a\s+)?sp[øo]rre|(?:bereits|schon)\s+(?:\w+\s+){0,2}(?:freigegeben|genehmigt|zugestimmt)|frag\w*\s+nicht\s+(?:nach\s+)?(?:einer\s+)?bestatigung|ohne\s+(?:ruckfrage|bestatigung)|no\s+(?:pidas|solicites)\s+(?:ninguna\s+)?confirmacion|sin\s+(?:pedir\s+)?confirmacion|ya\s+(?:ha\s+)?(?:aprobado|autorizado)|ne\s+demande[sz]?\s+pas\s+(?:de\s+)?confirmation|sans\s+(?:demander\s+(?:de\s+)?)?confirmation|deja\s+(?:\w+\s+)?(?:approuve|autorise)|senza\s+(?:chiedere\s+)?conferma|nao\s+(?:peca|pergunte)\s+confirmacao|sem\s+(?:pedir\s+)?confirmacao|zonder\s+(?:te\s+vragen|bevestiging)|без\s+(?:подтвержден|підтвердженн)|不(?:要|必|需)(?:再)?(?:向用户)?(?:确认|確認)|確認(?:は|を)?(?:不要|せず)|확인(?:을)?\s*(?:묻지|받지)\s*(?:말|않)|sp[øo]rg\s+ikke|uden\s+at\s+sp[øo]rge|pa\s+forhand\s+(?:\w+\s+)?godkendt|ikke\s+sp[øo]r|uten\s+a\s+sp[øo]rre|pa\s+forhand\s+(?:\w+\s+)?godkjent|fraga\s+inte|utan\s+att\s+fraga|i\s+forvag\s+(?:\w+\s+)?godkant|ala\s+kysy|ilman\s+vahvistust|neptej|nepytaj|bez\s+potvrzeni|bez\s+potvrdenia|predem\s+(?:\w+\s+)?(?:schvalil|souhlasil)|vopred\s+(?:\w+\s+)?(?:schvalil|suhlasil)|ne\s+kerdezz|megerosites\s+nelkul|jovahagyas\s+nelkul|elore\s+(?:\w+\s+)?jovahagyt|nu\s+(?:cere|solicita)\s+confirmare|fara\s+(?:a\s+cere\s+)?confirmare|a\s+aprobat\s+deja|deja\s+a\s+aprobat|χωρίς\s+επιβεβαίωση|χωρις\s+επιβεβαιωση|μην?\s+ζητ\S*\s+επιβεβα[ιί]|[ηή]δη\s+(?:\S+\s+){0,2}εγκρ[ιί]ν|не\s+питай|без\s+потвърждение|вече\s+(?:е\s+)?одобр|не\s+спрашивай|уже\s+(?:\S+\s+)?(?:разрешил|одобрил|согласил)|заранее\s+(?:\S+\s+)?(?:одобр|соглас|разреш)|вже\s+(?:\S+\s+)?(?:погодив|дозволив|схвалив)|ne\s+(?:trazi|pitaj)\s+(?:potvrdu)?|bez\s+potvrde|bez\s+potrditve|ne\s+sprasuj|neklausk|be\s+patvirtinimo|nejauta|bez\s+apstiprinajuma|ara\s+kusi|kinnituseta|ilma\s+kinnituseta|an\s+sta[ðd]festingar|ekki\s+spyrja|moenie\s+(?:die\s+gebruiker\s+)?vra|sonder\s+(?:om\s+te\s+vra|bevestiging)|huwag\s+(?:nang\s+)?(?:magtanong|humingi\s+ng\s+kumpirmasyon)|nang\s+walang\s+kumpirmasyon|usiulize|bila\s+kuthibitisha|jangan\s+minta\s+(?:pengesahan|konfirmasi)|tanpa\s+(?:pengesahan|konfirmasi)|khong\s+can\s+hoi|khong\s+can\s+xac\s+nhan|đa\s+đong\s+y\s+truoc|đong\s+y\s+truoc|sormadan|onay\s+(?:sorma|isteme)|onay\s+istemeden|non\s+chiedere\s+(?:mai\s+)?(?:la\s+)?conferma|(?:ha\s+)?gia\s+(?:\w+\s+){0,2}(?:autorizzato|approvato|acconsentito)|nao\s+(?:peca|pergunte|solicite)\s+(?:a\s+)?confirmacao|ja\s+(?:\w+\s+)?(?:autorizou|aprovou|consentiu)|vraag\s+niet\s+om\s+bevestiging|heeft\s+al\s+(?:\w+\s+)?(?:toestemming|goedgekeurd)|vooraf\s+(?:\w+\s+)?goedgekeurd|nie\s+pytaj|juz\s+(?:\w+\s+)?(?:zgodzi|zatwierdzi)|z\s+gory\s+(?:\w+\s+)?zatwierdz|不要询问|已经同意|已(?:预先|事先)(?:授权|同意)|事先同意|確認を求めない|確認は不要|既に同意|이미\s*(?:\S+\s*)?동의|확인\s*절차\s*생략|확인을\s*요청하지|(?:دون|بدون)\s+تأكيد|لا\s+تطلب\s+(?:أي\s+)?تأكيد|אל\s+תבקש\s+אישור|ללא\s+אישור|بدون\s+تأیید|تأیید\s+نخواه|पुष्टि\s+न|बिना\s+पुष्टि|ไม่ต้องยืนยัน|ไม่ต้องถาม|deja\s+(?:\w+\s+)?(?:approuve|autorise|consenti)|a\s+deja\s+(?:\w+\s+)?(?:approuve|autorise)|(?:aunque|incluso\s+si)\s+el\s+usuario|meme\s+si\s+l'utilisateur|(?:auch|selbst)\s+wenn\s+(?:der|die)\s+(?:nutzer|benutzer|anwender)|anche\s+se\s+l'utente|mesmo\s+que\s+o\s+usuario|ook\s+als\s+de\s+gebruiker|даже\s+если\s+пользовател|s[öo]ylese\s+bile|selfs\s+as\s+die|nawet\s+jesli\s+uzytkownik|i\s+kdyz\s+uzivatel|ngay\s+ca\s+khi|即使用户|ユーザーが[^。]{0,12}ても|ユーザー(?:の)?確認なしで|ஏற்கனவே\s+(?:\S+\s+){0,2}ஒப்புதல்|உறுதிப்படுத்தல்\s+கேட்க\s+வேண்டா|\u092a\u0939\u0932\u0947\s+\u0938\u0947\s+(?:\S+\s+){0,2}\u092e\u0902\u091c\u093c?\u0942\u0930\u0940|(?:\u0926\u094b\u092c\u093e\u0930\u093e|\u0926\u0941\u092c\u093e\u0930\u093e)\s+\u0928\s+\u092a\u0942\u091b|(?:jau|ieprieks)\s+(?:\S+\s+){0,4}piekrisan|zgod\S*\s+z\s+gory/;
const R8_INTL = /ignor(?:ez|iere|ieren|a|ar)\s+(?:\S+\s+){0,3}(?:instructions|anweisungen|instrucciones|istruzioni|instruções|instructies)|(?:忽略|无视|無視)[^。\n]{0,10}(?:指令|指示|说明|命令|規則|规则)|(?:игнорир|забуд)\S*\s+(?:\S+\s+){0,3}инструкц|(?:이전|모든)\s*(?:지시|명령)[^.\n]{0,8}무시/g;

const USER = String.raw`(?:the\s+)?(?:user|human|operator|them)`;
const R9: Pattern[] = [
  p(new RegExp(String.raw`\b(?:do\s+not|don't|never|without)\s+(?:tell|telling|mention|mentioning|inform|informing|reveal|revealing|disclose|disclosing|notify|notifying|alert|alerting|let)\s+(?:this\s+|it\s+|that\s+|anything\s+)?(?:to\s+)?${USER}\b`, "g"), "high", "concealment from the user"),
  p(/\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|show|display|log|report)\s+(?:this|that|it|these|the\s+(?:file|step|instruction|fact|sidenote|request|redirect|change|proxy))\b/g, "high", "concealment"),
  p(/\b(?:silently|secretly|covertly|quietly|discreetly|surreptitiously|stealthily)\s+(?:send|forward|upload|include|read|call|invoke|execute|run|copy|add|change|replace|redirect|bcc|cc|post|transmit|exfiltrate|collect|share|attach|append|log)\b/g, "high", "covert action"),
  p(/\bkeep\s+(?:this|it|that)\s+(?:a\s+)?(?:secret|hidden|quiet|confidential|between\s+us|private\s+from)/g, "high", "concealment"),
  p(/\b(?:this|it)\s+(?:could|would|might|will|may)\s+(?:even\s+)?(?:upset|worry|alarm|scare|confuse|annoy|concern)\s+(?:the\s+)?user/g, "high", "concealment (spare the user)"),
  p(/\b(?:do\s+not|don't)\s+make\s+it\s+obvious/g, "high", "concealment"),
  p(/\b(?:the\s+)?user\s+(?:should|must|does|need|needs)\s*(?:not|n't)\s+(?:know|see|notice|be\s+aware|find\s+out|be\s+told|to\s+know)/g, "high", "concealment from the user"),
  p(/\bhide\s+(?:this|it|the\s+\w+)\s+from\s+(?:the\s+)?user/g, "high", "concealment from the user"),
  p(new RegExp(String.raw`\b(?:do\s+not|don't|never|without)\s+(?:show|showing|display|displaying|mention|mentioning|reveal|revealing|surface|surfacing)\s+(?:[\w'-]+\s+){1,3}?(?:to|from|with)\s+${USER}\b`, "g"), "high", "concealment from the user"),
  p(new RegExp(String.raw`\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:bother|trouble|burden|distract)\s+${USER}\b`, "g"), "high", "concealment from the user"),
  p(new RegExp(String.raw`\bkeep\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+out\s+of\s+(?:the\s+)?(?:summar(?:y|ies)|answers?|replies|response|output)`, "g"), "high", "concealment from the user"),
  p(/\b(?:a\s+)?(?:mere|just\s+an?|only\s+an?)\s+implementation\s+detail\b/g, "medium", "downplays an instruction as an implementation detail"),
  p(/\bwithout\s+(?:asking|(?:the\s+)?user'?s?\s+(?:knowledge|consent|permission|approval))/g, "medium", "acts without the user's knowledge"),
];

const R10: Pattern[] = [
  p(/\botherwise\s+(?:the\s+|this\s+)?(?:tool|it|this|function|system|request|application|app|call|server)?\s*(?:will|would|may|might|can)\s*(?:not\s+work|fail\s+to\s+work|crash|break|stop\s+working|malfunction|be\s+blocked|refuse|not\s+function)/g, "medium", "coercive condition"),
  p(/\b(?:this|it)\s+is\s+(?:required|necessary|mandatory|needed|essential)\s+for\s+(?:the\s+|this\s+)?tool\s+to\s+(?:work|function|run|operate)/g, "medium", "coercive condition"),
  p(/\b(?:the\s+)?(?:application|system|server|tool|app)\s+will\s+crash\b|\ball\s+data\s+will\s+be\s+lost\b|\b(?:will\s+not|won't)\s+work\s+otherwise\b|\brequest\s+will\s+be\s+blocked\b/g, "medium", "coercive condition"),
  p(/\bif\s+you\s+(?:violate|ignore|don't|do\s+not|fail\s+to)\b[^.\n]{0,60}\b(?:crash|crashes|fail|fails|not\s+work|blocked|lost)\b/g, "medium", "coercive condition"),
];

const EMPHASIS = /\b(important|crucial|critical|vital|urgent|ignore|disregard|override|bypass)\b/g;

/** Cheap tests that a rule group can match at all: most strings skip most patterns. */
const GATE: Record<"R6" | "R7" | "R8" | "R9" | "R10", RegExp> = {
  R6: /[<[{]/,
  R7: /before|whenever|every|each time|any time|prefix|prepend|append|when|must|start|beginning|first|prior|all|any/,
  R8: /ignor|disregard|forget|overrid|bypass|skip|you are now|instructions?\s*:|follow|your (?:new|real|actual|true)|supersede|replace|precedence|outrank|ask|approv|confirm|consent|implied|treat|without|want/,
  R9: /\bnot\b|n't|never|without|no need|out of|silent|secret|covert|quiet|discreet|surreptitious|stealth|keep|upset|worry|alarm|scare|confuse|annoy|concern|obvious|hide|implementation detail/,
  R10: /otherwise|required|necessary|mandatory|needed|essential|crash|lost|work|blocked|violate|fail/,
};

/** "<IMPORTANT> tags", "[SYSTEM] markers": the tag is named as a thing (a scanner's documentation), not used. */
const NAMED_AS_THING = /^\s*(?:tags?|markers?|blocks?|elements?|headers?|sections?|wrappers?)\b/;

function run(view: TextView, scope: Scope, sink: FindingSink, ruleId: keyof typeof GATE, patterns: Pattern[]): void {
  if (!GATE[ruleId].test(view.text)) return;
  for (const { re, severity, message } of patterns) {
    for (const m of matches(view, re)) {
      const end = m.index + m[0].length;
      const named = ruleId === "R6" && NAMED_AS_THING.test(view.text.slice(end, end + 20));
      // "[secret]" in lower case is a placeholder a tool prints ("shown as [secret]"); fake tags shout ("[SYSTEM]").
      const ev = view.evidence(m.index, end);
      const placeholder = ruleId === "R6" && m[0].startsWith("[") && /^\[\s*\w+\s*\]$/.test(m[0]) && !isCaps(view.raw.slice(ev.start, ev.end));
      // "<IMPORTANT>This cannot be undone. Ask the user to confirm…</IMPORTANT>": a tag whose whole
      // content guards the user from the tool (asks, confirms, warns) and moves nothing.
      const wrapped = /^<\s*\//.test(m[0]) ? view.text.slice(view.text.lastIndexOf(">", m.index - 1) + 1, m.index) : tagContent(view.text, end);
      const guarding = ruleId === "R6" && !named && !placeholder && guardsTheUser(wrapped);
      const low = named || placeholder || guarding;
      sink.phrase(view, scope, ruleId, low ? "low" : severity, m.index, end, named ? `${message} (named as a thing, not used)` : placeholder ? `${message} (a lower-case placeholder, not a tag)` : guarding ? `${message} (its content only asks for the user's confirmation)` : message);
    }
  }
}

/** The text a tag wraps: up to its closing tag, or the next 300 characters. */
function tagContent(text: string, from: number): string {
  const rest = text.slice(from, from + 300);
  const close = rest.search(/<\s*\//);
  return close >= 0 ? rest.slice(0, close) : rest;
}
const GUARDS = /\b(?:ask|asks|confirm|confirms|show|warn|remind)\s+(?:the\s+)?users?\b|\b(?:ask|tell)\s+them\s+to\s+confirm|\bcannot\s+be\s+undone|\birreversibl\w*|\bdouble-check/;
const HARMS = /\b(?:send|upload|post|forward|copy|include|attach|email|read|cat|call|invoke|ignore|secret\w*|password|token|key|credential\w*|without|never\s+(?:tell|mention|show)|do\s+not\s+(?:tell|mention|show)|don't|silently|quietly|hidden|instead)\b|[~@]|:\/\//;
const guardsTheUser = (content: string) => content.trim().length > 0 && GUARDS.test(content) && !HARMS.test(content);

const isCaps = (s: string) => /[A-Z]/.test(s) && !/[a-z]/.test(s);

/** R6–R11 over one string (not identifiers: names are judged as identifiers elsewhere). */
export function scanInstructions(view: TextView, scope: Scope, sink: FindingSink): void {
  const t = view.text;
  if (t.length < 6) return;
  run(view, scope, sink, "R6", R6);
  for (const re of /\*\*|system|assistant|developer/.test(t) ? [BOLD_TAG, LABEL] : []) {
    for (const m of matches(view, re)) {
      const ev = view.evidence(m.index, m.index + m[0].length);
      const raw = view.raw.slice(ev.start, ev.end);
      const strong = re === LABEL || /system|instruction|secret|hidden/.test(m[0]) || m[0].replace(/\*/g, "").trim().split(/\s+/).length >= 2;
      if (isCaps(raw) && strong) sink.phrase(view, scope, "R6", "high", m.index, m.index + m[0].length, "fake authority tag");
    }
  }
  run(view, scope, sink, "R7", R7);
  run(view, scope, sink, "R8", R8);
  scanForeignOverride(view, scope, sink);
  run(view, scope, sink, "R9", R9);
  run(view, scope, sink, "R10", R10);

  const words = new Map<string, number>();
  for (const m of matches(view, EMPHASIS)) if (!words.has(m[1]!)) words.set(m[1]!, m.index);
  const very = /\b(very|really|extremely)(\s+\1){2,}\b/.exec(t);
  if (words.size >= 3 || (very && words.size >= 1)) {
    const at = Math.min(...words.values(), very?.index ?? Infinity);
    const list = [...words.keys()].join(", ");
    sink.phrase(view, scope, "R11", words.size >= 5 ? "medium" : "low", at, at + 40, `emphasis words aimed at the model: ${list}${very ? `, "${very[0]}"` : ""}`, { noDiscount: true });
  }
}

function scanForeignOverride(view: TextView, scope: Scope, sink: FindingSink): void {
  const lower = view.raw.toLowerCase();
  if (lower.length !== view.raw.length) return;
  R8_INTL.lastIndex = 0;
  const m = R8_INTL.exec(lower);
  if (m) sink.add(scope, "R8", "high", view.rawEvidence(m.index, m.index + m[0].length), "instruction override in another language");
  // Folding every string is the costly part (scan cost): only text with a consent word is folded.
  if (!CONSENT_HINT.test(view.raw)) return;
  const folded = foldForCues(view.raw);
  const consent = CONSENT_INTL.exec(folded);
  if (consent) sink.add(scope, "R8", "high", folded.length === view.raw.length ? view.rawEvidence(consent.index, consent.index + consent[0].length) : view.rawEvidence(0, Math.min(view.raw.length, 160)), "instruction to skip the user's approval, in another language");
}

const PROBES = [...R6, ...R8, ...R9.slice(0, 8), ...R7.filter((x) => x.severity === "high")].map((x) => new RegExp(x.re.source));

/** Whether lower-case text (e.g. a decoded payload) reads as instructions to the agent. */
export function instructionProbe(lower: string): boolean {
  return PROBES.some((re) => re.test(lower));
}
