// R16 (credential harvesting) — a parameter, or a sentence, that asks the user for a password, a
// one-time/MFA code, a wallet recovery phrase, payment card data or an API secret, on a tool whose
// own purpose (name, title, summary line: never the rest of the description, or a payload could
// vouch for itself) has nothing to do with that credential. A password manager taking a password,
// a sign-in tool taking an OTP, a wallet import taking a seed phrase, a checkout taking a card: all
// fit. A weather tool taking any of them is phishing through the agent.
import { cueSentences, foldForCues, mayBeForeign } from "./cues-multilingual";
import { inputProperties } from "./extract";
import { insideMention, mentionedQuoteSpans } from "./mentions";
import { expandIdentifier } from "./normalize";
import { PATH_TARGETS } from "./rules-data";
import type { FindingSink, Scope, ToolContext } from "./sink";
import { matches, type TextView } from "./text-view";
import type { ToolLike } from "./types";

/** `head`: a secret no tool asks for in passing, so a parameter description that opens by naming it says what the value is. */
type Kind = { what: string; name: RegExp; words: RegExp; fits: RegExp; head?: true };

// Not "user" or "account" alone: "the user's calendar" is no sign-in ("user accounts", "account login" are).
const SIGN_IN = String.raw`anmeld\w*|einlogg\w*|iniciar\s+sesion|connexion|accedi|zaloguj\w*|logowa\w*|loguj\w*|inlogg\w*|войти|вход|авториз\w*|登录|ログイン|로그인|auth\w*|log(?:s|ging)?\s?in|logins?|sign(?:s|ing)?\s?in|signin|sso|session|identity|idp|okta|auth0|keycloak|user\s+accounts?|users?\s+(?:management|admin\w*|directory)|accounts?\s+(?:login|security|access|recovery|settings)|register\w*|sign\s?up|enrol\w*`;
const KINDS: Kind[] = [
  {
    what: "a one-time or MFA code",
    head: true,
    name: /(?:^|_)(?:otp|totp|hotp|mfa|2fa|two_?factor\w*|verification_?code|verify_?code|auth_?code|sms_?code|one_?time_?\w*|backup_?codes?|recovery_?codes?|security_?code|passcode)(?:$|_)/i,
    words: /\b(?:one[- ]time\s+(?:code|password|passcode)|otp|2fa|mfa|two[- ]factor|authenticator\s+(?:app\s+)?code|verification\s+codes?|sms\s+codes?|backup\s+codes?|recovery\s+codes?|security\s+codes?|\d[- ]digit\s+code|codigo\s+de\s+(?:verificacao|verificacion|seguridad|seguranca)|codigo\s+(?:recebido|recibido)\s+por\s+sms|code\s+de\s+(?:verification|securite|confirmation)|(?:bestatigungs|verifizierungs|sicherheits)code|codice\s+(?:di\s+verifica|otp)|verificatiecode|sakerhetskod\w*|engangskod\w*)\b|код\s+(?:подтверждения|из\s+смс)|одноразов[а-яё]*\s+код|验证码|認証コード|確認コード|인증\s?(?:코드|번호)|رمز\s+(?:التحقق|التأكيد)/,
    // Assuming a cloud role or opening a VPN or sudo session takes the user's own MFA code by design.
    // So does a step-up check on an action the service itself guards: publishing a package, moving
    // money, changing where pay goes, porting a number.
    fits: new RegExp(String.raw`\b(?:${SIGN_IN}|verif\w*|2fa|mfa|otp|factors?|twilio|sts|assume\w*|roles?|iam|vpn|sudo|publish\w*|releas\w*|npm|pypi|registry|payouts?|withdraw\w*|wire|bank\w*|iban|payroll|direct[- ]deposit|port[- ]out)\b`),
  },
  {
    what: "a wallet recovery phrase or private key",
    head: true,
    name: /(?:^|_)(?:seed|seed_?phrase|seed_?words|mnemonic\w*|recovery_?phrase|secret_?phrase|wallet_?key)(?:$|_)/i,
    words: /\b(?:(?:wallet|ethereum|eth|solana|bitcoin|btc|crypto)\s+private\s+keys?|seed\s+phrase|recovery\s+phrase|secret\s+recovery|mnemonic(?:\s+words)?|\d{2}[- ]word\s+(?:phrase|seed)|frase\s+(?:de\s+recuperacion|semilla|de\s+recuperacao)|phrase\s+de\s+(?:recuperation|recuperation)|wiederherstellungsphrase|seed-phrase)\b|сид-фраз|мнемоническ[а-яё]*\s+фраз|助记词|リカバリーフレーズ|복구\s?문구/,
    fits: /\b(?:import\w*|restor\w*|recover\w*|deriv\w*|keygen|generat\w*)\b/,
  },
  {
    what: "payment card data",
    head: true,
    name: /(?:^|_)(?:card_?number|cc_?num\w*|credit_?card\w*|cvv2?|cvc2?|card_?pin|card_?code|card_?security\w*)(?:$|_)/i,
    words: /\b(?:card\s+number|credit\s+card\s+number|cvv2?|cvc|card\s+security\s+code|card\s+pin|numero\s+de\s+(?:sa\s+|la\s+|su\s+)?(?:carte|tarjeta|cartao)|cryptogramme|kartennummer|номер\s+карты)\b|номер\s+карты|卡号|カード番号/,
    fits: /\b(?:pay\w*|checkout|charg\w*|billing|cards?|purchas\w*|orders?|stripe|braintree|adyen|subscri\w*|invoice\w*)\b/,
  },
  {
    what: "a password",
    name: /(?:^|_)(?:password|passwd|pwd|pass_?phrase|pin|passwort|kennwort|contrasena|contraseña|senha|mot_?de_?passe|wachtwoord|parol|haslo|sifre|kata_?sandi)(?:$|_)/i,
    words: /\b(?:passwords?|passphrase|pin\d?(?:\s+code)?|credenziali|credenciales|identifiants|zugangsdaten|anmeldedaten|login\s+(?:and|&)\s+password|passwort|kennwort|contrasena|mot\s+de\s+passe|senha|wachtwoord|password|haslo|sifre\w*|kata\s+sandi)\b|парол[ья]|логин\s+и\s+парол|密码|密碼|パスワード|비밀번호/,
    fits: new RegExp(String.raw`비밀번호|パスワード|密码|\b(?:${SIGN_IN}|pw|pwd|passwd|shar\w*\s+links?|links?|protect\w*|wallets?|configur\w*\s+(?:\S+\s+){0,3}access|access\s+to|app\s+passwords?|vaults?|passwords?|keychain|keepass|kdbx|bitwarden|1password|lastpass|credentials?|unlock\w*|connect\w*|database|db|postgres\w*|mysql|mariadb|mongo\w*|redis|smtp|imap|pop3|ftp|sftp|ssh|rdp|vnc|wi-?fi|zip|archives?|encrypt\w*|decrypt\w*|pdf|keystore|certificates?|gpg|pgp|gnupg|signing|signatures?|private\s+keys?|secret\s+keys?|key\s?pairs?|replica\w*|replication|tresor\w*|entsperr\w*|coffre\w*|deverrouill\w*|boveda|desbloque\w*|cofre|cassaforte|sblocc\w*|kluis|ontgrendel\w*|сейф\w*|хранилищ\w*|разблок\w*|socios?|mitglied\w*|membership|adherent\w*|soci[oa]?|lid(?:maatschap)?)\b`),
  },
  {
    what: "a session cookie",
    // Not "*_sid": Twilio-style call_sid / account_sid name resources; a bare "sid" is the session id.
    name: /(?:^|_)(?:session_?cookies?|cookies?|auth_?cookies?|session_?token)(?:$|_)|^(?:sid|session_?sid)$/i,
    words: /\b(?:session\s+cookies?|auth(?:entication)?\s+cookies?|cookies?\s+(?:file|jar|header)|browser\s+cookies?)\b/,
    fits: /\b(?:browser\w*|cookies?|sessions?|http|requests?|scrap\w*|crawl\w*|fetch\w*|web|auth\w*|log\s?in|sign\s?in)\b/,
  },
  {
    what: "a cloud provider's secret key",
    name: /(?:^|_)(?:aws_?secret\w*|aws_?access\w*|secret_?access_?key|gcp_?(?:key|credentials?)|azure_?(?:key|secret)\w*|service_?account_?key)(?:$|_)/i,
    words: /\b(?:(?:aws|amazon|gcp|google\s+cloud|azure)\s+(?:secret\s+)?(?:access\s+)?(?:keys?|credentials?|secrets?)|secret\s+access\s+keys?|service\s+account\s+keys?)\b/,
    fits: /\b(?:aws|amazon|s3|ec2|lambda|iam|gcp|google\s+cloud|gcs|bigquery|azure|cloud|terraform|pulumi|deploy\w*|infra\w*|kubernetes|k8s)\b/,
  },
  {
    what: "an API key or cloud secret",
    name: /(?:^|_)(?:api_?key|apikey|secret_?key|secret_?access_?key|aws_?secret\w*|access_?key(?:_?id)?|private_?token|client_?secret)(?:$|_)/i,
    words: /\b(?:api\s+keys?|secret\s+(?:access\s+)?keys?|access\s+keys?|client\s+secrets?|private\s+tokens?)\b/,
    fits: /\b(?:api|apis|auth\w*|keys?|tokens?|connect\w*|integrat\w*|clients?|sdk|service|services|cloud|aws|gcp|azure|openai|anthropic|llm|models?|send\w*|sms|e-?mail|mail\w*|webhooks?|deploy\w*|http|requests?|search|maps?|translat\w*|weather|payments?|stripe)\b/,
  },
];

const kindOfName = (name: string) => KINDS.find((k) => k.name.test(name));
const kindOfWords = (text: string) => KINDS.find((k) => k.words.test(text));
// A tool named for the credential (set_port_out_pin, rotate_api_key) handles it by definition.
const fitsPurpose = (kind: Kind, ctx: ToolContext) => kind.name.test(ctx.name ?? "") || kind.fits.test(`${expandIdentifier(ctx.name ?? "").toLowerCase()} ${ctx.purpose}`);

/** "Ask the user for…" in the languages of cues-multilingual.ts (folded: lower case, no Latin accents). */
const ASK_ANY = /\b(?:ask|asks|asking|request|prompt)\s+(?:the\s+)?(?:user|users|them|customer)\b|\bkullan[iı]c[iı]dan\s+(?:\S+\s+){0,5}iste(?!me)|اطلب\s+من\s+المستخدم|\b(?:pide|pida|pidele|pedir|pregunta)\s+(?:al|a\s+la)\s+usuari|\b(?:peca|pergunte|solicite)\s+(?:ao|a)\s+usuari|\bdemande[rz]?\s+a\s+l'utilisat|\b(?:frag\w*|bitte)\s+(?:den|die)\s+(?:benutzer|nutzer|anwender)|\bchiedi\s+all'utente|\bvraag\s+de\s+gebruiker|(?:попроси|спроси|запроси)\S*\s+(?:у\s+)?(?:пользовател|него|неё|нее|клиент)|请(?:向)?用户|向用户(?:索取|询问|要)|(?:请|請)向[^。]{0,10}(?:索取|询问|詢問|要求)|\bbe\s+anvandaren\s+om\b|\bpaprasyk\S*\s+(?:vartotoj|naudotoj)|ユーザーに[^。]{0,12}(?:尋ね|聞い|求め|入力)|사용자에게[^.]{0,12}(?:요청|물어|입력)/;

/** A value taken out of a credential file or store ("full contents of ~/.kube/config", "exported from the user's password store"). */
const TAKEN_FROM = /\b(?:(?:full|entire|whole|raw)\s+(?:text|contents?)|contents?\s+of|base64\s+of|bytes\s+of|exported\s+from|copied\s+from|taken\s+from|read\s+from|dump(?:ed)?\s+(?:of|from)|straight\s+from)\b/;
/** "npm token (from ~/.npmrc _authToken)": a secret named as taken from a credential file (a host alias from ~/.ssh/config is not a secret). */
const FROM_FILE = /\bfrom\s+[~./]\S/;
const SECRET_NOUN = /\b(?:tokens?|keys?|passwords?|secrets?|cookies?|credentials?)\b/;
const CREDENTIAL_SOURCE = new RegExp(String.raw`${PATH_TARGETS}|\b(?:password\s+(?:store|manager|vault|file)|keychain|keyring|saved\s+(?:passwords?|logins?|credentials)|(?:browser|chrome|firefox)\s+(?:passwords?|credentials|logins?|cookies?)|login\s+data|local\s+state|logins\.json|key[34]\.db|cookies\s+(?:file|db|sqlite)|credential\s+(?:store|file|helper)|client-key-data|private\s+key\s+file)\b`);
/** Tools whose purpose is moving or storing those secrets: a vault import, a backup, a migration. */
const SOURCE_FITS = /\b(?:vaults?|keychain|password\s+manager|1password|bitwarden|keepass\w*|lastpass|import\w*|migrat\w*|backup\w*|restor\w*|secrets?\s+manager|dotfiles?|chezmoi)\b/;

const USERS_ACCOUNT = /\b(?:of|for|to)\s+(?:the\s+)?(?:user'?s?|your|their|the\s+customer'?s?)\s+(?:[\w/-]+\s+){0,3}(?:account|login|portal|bank\w*)\b/;
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Parameters named for (or described as) a credential the tool has no reason to need. */
export function scanHarvestParameters(tool: ToolLike, ctx: ToolContext, sink: FindingSink): void {
  for (const [name, schema] of inputProperties(tool)) {
    const items = schema.items && typeof schema.items === "object" && !Array.isArray(schema.items) ? (schema.items as Record<string, unknown>) : {};
    const own = foldForCues(`${str(schema.title)} ${str(schema.description)}`);
    const itemText = `${str(items.title)} ${str(items.description)}`.trim();
    const described = itemText ? `${own} ${foldForCues(itemText)}` : own;
    if ((TAKEN_FROM.test(described) || (FROM_FILE.test(described) && SECRET_NOUN.test(described))) && CREDENTIAL_SOURCE.test(described) && !SOURCE_FITS.test(`${expandIdentifier(ctx.name ?? "").toLowerCase()} ${ctx.purpose}`)) {
      const pointer = `/inputSchema/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      sink.add({ toolName: ctx.name, pointer, field: "property-name" }, "R16", "high", { text: name, start: 0, end: name.length }, `parameter "${name}" takes the contents of a credential file or store, which a tool for "${clip(ctx.purpose, 60)}" has no reason to need: credential harvesting`);
      continue;
    }
    const generic = /^(?:code|key|secret|token|pin|phrase|verification|credentials?)$/i.test(name) || /(?:^|_)(?:code|key|secret|phrase)$/i.test(name);
    // A description that opens by naming the secret ("Recovery phrase, space separated") says what the value is.
    // Passwords and API keys are left out: "user:password" on a basic_auth setting is the tool's own.
    const head = kindOfWords(own.trimStart().split(/[,.;:(]/)[0]!.slice(0, 60));
    // A hash, digest or fingerprint of a secret is not the secret (pin_hashes pins tool definitions).
    if (/hash|digest|checksum|fingerprint/i.test(name)) continue;
    // A yes/no switch ("reset_mfa": true) carries no code or password.
    if (schema.type === "boolean") continue;
    // "Username and password of the user's load-board account": the user's sign-in to another service.
    const theirs = !head?.head && head && USERS_ACCOUNT.test(own) ? head : undefined;
    const kind = kindOfName(name) ?? (generic || ASK_ANY.test(own) ? kindOfWords(own) : head?.head ? head : theirs);
    if (!kind || fitsPurpose(kind, ctx)) continue;
    const pointer = `/inputSchema/properties/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    sink.add({ toolName: ctx.name, pointer, field: "property-name" }, "R16", "high", { text: name, start: 0, end: name.length }, `parameter "${name}" asks for ${kind.what}, which a tool for "${clip(ctx.purpose, 60)}" has no reason to need: credential phishing`);
  }
}

const ASK = /\b(?:ask|asks|asking|request|requests|prompt|prompts)\s+(?:the\s+)?(?:user|users|them|customer|account\s+holder)\b[^.\n]{0,20}?\b(?:for|to\s+(?:provide|enter|give|share|reply\s+with|type|paste|send|read\s+out|confirm))\b([^.\n]{0,80})|\b(?:please\s+)?(?:provide|enter|share|give\s+us|type|paste|reply\s+with|send\s+us|tell\s+us)\s+(?:your|the\s+user'?s|their)\b([^.\n]{0,80})/g;

/** Sentences that ask the user for a credential the tool has no reason to need. */
export function scanHarvestText(view: TextView, scope: Scope, sink: FindingSink): void {
  const t = view.text;
  scanForeignAsk(view, scope, sink);
  if (!/ask|request|prompt|provide|enter|share|give|type|paste|reply|send|tell/.test(t)) return;
  const mentioned = mentionedQuoteSpans(t);
  for (const m of matches(view, ASK)) {
    // A phishing detector quotes the lures it catches ("lures such as 'enter your seed phrase'").
    if (insideMention(mentioned, m.index)) continue;
    const object = m[1] ?? m[2] ?? "";
    // "enter your own password on its login page": the user signs in at the service, not here.
    if (/\b(?:on|at|in)\s+(?:its|their|the\s+(?:official|provider'?s|service'?s|vendor'?s))\s+(?:own\s+)?(?:login|sign-?in|web\s?site|site|page|app|portal)\b/.test(object)) continue;
    const kind = kindOfWords(object);
    if (!kind || fitsPurpose(kind, scope.tool)) continue;
    sink.phrase(view, scope, "R16", "high", m.index, m.index + m[0].length, `asks the user for ${kind.what}, which this tool has no reason to need: credential phishing`);
  }
}

/** The same in other languages: a sentence that asks the user and names a credential kind. */
function scanForeignAsk(view: TextView, scope: Scope, sink: FindingSink): void {
  if (!mayBeForeign(view.raw)) return;
  const folded = foldForCues(view.raw);
  for (const { start, text } of cueSentences(folded)) {
    if (!ASK_ANY.test(text) || /\b(?:ask|request|prompt)\b/.test(text)) continue;
    const kind = kindOfWords(text);
    if (!kind || fitsPurpose(kind, scope.tool)) continue;
    const aligned = folded.length === view.raw.length;
    sink.add(scope, "R16", "high", view.rawEvidence(aligned ? start : 0, aligned ? start + text.length : Math.min(view.raw.length, 160)), `asks the user for ${kind.what}, which this tool has no reason to need: credential phishing (in another language)`, { discount: scope.tool.describesAttacks });
    return;
  }
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
