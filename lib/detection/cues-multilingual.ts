// Instructions to the agent written in other languages (de, es, fr, it, pt, nl, ru, zh, ja, ko;
// some stems of pl, tr, id, vi, ar, hi).
// Not phrase lists, which a translator's synonym defeats, but small per-language stem lists per
// ROLE: "ignore" + "instructions", "tell" + "user" under a negation, "secretly", a verb of moving
// data (read, send, include, put…), and what it moves (conversation history, passwords, keys).
// A finding needs two roles in one sentence (e.g. a moving verb and a secret or a credential path,
// which is language-independent), so a benign description that says "instructions" or "password"
// once does not match. Stems are accent-free: the text is matched with Latin accents removed.

/** One role: a union of stems over languages. Latin/Cyrillic stems must start a word; CJK need not. */
type Role = { word: string[]; cjk: string[] };

const role = (word: string[], cjk: string[] = []): Role => ({ word, cjk });

export const ROLES = {
  ignore: role(
    ["ignorier", "vergiss", "vergessen", "missacht", "ignora", "ignore", "ignorez", "olvida", "omite", "descarta", "oublie", "dimentica", "esqueca", "negeer", "vergeet", "игнорир", "забудь", "забуд", "не обращай внимания", "пренебреги", "zignoruj", "ignoruj", "abaikan", "yoksay", "bo qua", "تجاهل"],
    ["忽略", "无视", "無視", "忘记", "忘掉", "不要理会", "무시", "잊"],
  ),
  instructions: role(
    ["anweisung", "instruktion", "regeln", "instrukcj", "polecen", "instruksi", "talimat", "huong dan", "التعليمات", "تعليمات", "vorgabe", "befehl", "instruccion", "indicacion", "reglas", "consigne", "instruction", "regle", "directive", "istruzion", "regole", "indicazion", "instruc", "regras", "orientac", "instructie", "regels", "инструкц", "указани", "правил", "команд"],
    ["指令", "指示", "说明", "規則", "规则", "命令", "提示词", "ルール", "지시", "명령", "규칙", "지침"],
  ),
  tell: role(
    ["oplys", "fortell", "opplys", "beratta", "tala om", "nayta", "oznamuj", "ukazuj", "zobrazuj", "povedz", "spominaj", "oznam", "mondd", "mutasd", "jelezd", "tajekoztas", "arata", "δείξ", "δειξ", "εμφάνισ", "показв", "уведом", "показу", "згаду", "reci$", "spominji", "obavijesti", "obavestava", "prikazuj", "povej", "omenjaj", "sakyk", "minek", "pranesk", "rodyk", "saki$", "pazino", "utle", "maini", "teavita", "naita", "segdu", "nefndu", "lattu vita", "vertel", "laat weet", "sabihin", "banggitin", "ipaalam", "ipakita", "taja$", "onyesha", "maklumkan", "sebut", "tunjuk", "bao$", "hien thi", "biet$", "bahset", "تذكر", "تعرض", "بتائیں", "বলবেন", "segnal", "far sapere", "wspominaj", "wspomin", "diberi tahu", "memberi tahu", "memberitahu", "lapor", "לציין", "לספר", "לדווח", "תציין", "לומר", "ציין", "erwahn", "sag", "teil", "verrat", "informier", "angezeigt", "anzeig", "gemeld", "gezegd", "verteld", "informow", "poinform", "montr", "mostrar", "mostrad", "mostra", "toon", "getoond", "pokaz", "показыва", "mitteil", "benachrichtig", "di$", "digas$", "diga$", "digan$", "decir", "mencion", "informe", "informa", "avis", "cuent", "revel", "dis$", "dire$", "dites$", "mentionn", "signale", "previen", "dirlo$", "dirle$", "menziona", "avvis", "rivel", "dizer", "conte$", "vertel", "meld", "zeg", "сообща", "сообщи", "говор", "скаж", "упомина", "упомян", "информир", "рассказ", "предупре", "mow", "informuj", "beri tahu", "soyle", "bildir", "noi", "تخبر", "تبلغ", "kerro", "ilmoita", "mainitse", "fortael", "fortæl", "naevn", "nævn", "nevn", "informa", "spune", "mentiona", "szolj", "említs", "emlits", "tudnia", "αναφέρ", "αναφερ", "πεις", "ενημερ", "казвай", "казва", "съобщ", "спомен", "beritahu", "maklum", "জানা", "kumwambia", "mwambia", "waambie", "vermeld", "berat", "namn", "nämn", "rikta", "berätta", "rekni", "řekni", "zminuj", "zmiňuj", "informuj", "повідом", "кажи", "розпов", "תספר", "תגיד", "תודיע", "תזכיר", "نگو", "نگوی", "اطلاع", "بگو"],
    ["জানাবেন", "বলবেন", "بتائیں", "بتاؤ", "แจ้ง", "บอก", "கூற", "சொல்ல", "தெரிவிக்க", "बताओ", "ज़िक्र", "उल्लेख", "告诉", "बताए", "बताएं", "बताना", "告知", "通知", "提及", "透露", "伝え", "知らせ", "言わ", "教え", "알리", "말하", "말씀", "언급"],
  ),
  user: role(["pouzivatel", "korisnik", "uporabnik", "naudotoj", "lietotaj", "kasutaja", "notand", "gumagamit", "صارف", "המשתמש", "kullanıcı", "brukar", "bruger", "benutzer", "nutzer", "anwender", "usuario", "utilisateur", "utente", "utilizador", "gebruiker", "пользовател", "uzytkownik", "pengguna", "kullanici", "nguoi dung", "المستخدم", "användar", "anvandar", "uzivatel", "uživatel", "користувач", "משתמש", "למשתמש", "کاربر", "kayttaja", "brugeren", "brukeren", "utilizator", "felhasznalo", "χρήστ", "χρηστ", "потребител", "pengguna", "ব্যবহারকারী", "mtumiaji"], ["ব্যবহারকারী", "صارف", "ผู้ใช้", "பயனர", "उपयोगकर्ता", "用户", "用戶", "使用者", "ユーザー", "ユーザ", "利用者", "사용자", "유저"]),
  negation: role(["moenie$", "ekki$", "huwag$", "wag$", "hindi$", "ara$", "ikkje$", "nei$", "نہ$", "مت$", "tidak$", "tak$", "אין$", "न$", "मत$", "ingen$", "inutile$", "inutil$", "unnotig", "innecesari", "superflu", "zbedn", "onnodig", "nicht$", "nie$", "nichts$", "kein", "no$", "nunca$", "sin$", "ne$", "n'$", "pas$", "jamais$", "sans$", "rien$", "non$", "mai$", "senza$", "nao$", "sem$", "niet$", "nooit$", "zonder$", "не$", "никогда$", "без$", "ничего$", "nie$", "jangan$", "tanpa$", "khong$", "đung$", "لا$", "دون$", "inte$", "aldrig$", "ne$", "nikdy$", "ні$", "אל$", "לא$", "نه$", "نگو", "ala$", "alaka$", "ei$", "ikke$", "aldri$", "nu$", "nem$", "μην$", "μη$", "δεν$", "jangan$", "না", "bila$", "usi"], ["করবেন না", "ห้าม", "ไม่", "வேண்டாம்", "வேண்டா", "不要", "不", "勿", "别", "无需", "ないで", "しないで", "せず", "마세요", "말고", "않", "지 마"]),
  secretly: role(["heimlich", "unauffallig", "verdeckt", "en secreto", "secretamente", "silenciosamente", "discretamente", "sigilosamente", "secretement", "discretement", "silencieusement", "en douce", "segretamente", "di nascosto", "silenziosamente", "stiekem", "тайно", "незаметно", "скрытно", "втихую", "молча", "stilletjes", "ongemerkt", "heimelijk", "po cichu", "potajemnie", "diam-diam", "gizlice", "sessizce", "bi mat", "سرا", "بصمت"], ["秘密地", "悄悄", "偷偷", "暗中", "こっそり", "密かに", "ひそかに", "黙って", "몰래", "조용히"]),
  move: role(
    ["send$", "indsæt", "udfyld", "lim inn", "fyll", "vidarebefordra", "klistra in", "tayta", "preposli", "vypln", "pripoj", "posielaj", "tovabbits", "illeszd", "toltsd", "tedd$", "completeaz", "adauga", "επικόλλ", "συμπλήρ", "συμπεριλ", "постав", "попълн", "включ", "заповн", "posalji", "proslijedi", "kopiraj", "zalijepi", "ispuni", "ukljuci", "poslji", "siusk", "persiusk", "nukopijuok", "iklijuok", "uzpildyk", "nosuti", "parsuti", "ieliec", "aizpildi", "saada$", "edasta", "kopeeri", "kleebi", "taida", "sendu", "limdu", "fylltu", "aanstuur", "plak$", "ipadala", "kopyahin", "ilagay", "isama", "nakili", "jaza", "ambatisha", "isi$", "lampirkan", "gui$", "chuyen tiep", "sao chep", "điền", "đien", "rellen", "pega$", "pegue", "remplis", "colle$", "collez", "renseign", "compila", "incolla", "riempi", "preencha", "cole$", "fulle", "trag", "vul$", "vul ", "wklej", "wypełnij", "yapıstır", "doldur", "заполни", "вложи", "mitsend", "mitsenden", "inserisc", "recopi", "wypchnij", "wstaw", "ekleyin", "lies$", "lese$", "lesen$", "sende", "senden", "schick", "mitschick", "mitgeschick", "mitsend", "mitgesend", "geschickt", "gesendet", "ubermittelt", "przekaz", "przeslij", "udostepn", "invii", "inviat", "ubergib", "ubergeben", "fuge", "fug", "hinzufug", "anhang", "einfug", "kopier", "hochlad", "lade", "weiterleit", "leite",
      "lee$", "leer$", "envia", "enviar", "manda", "incluy", "incluir", "adjunt", "agrega", "anade", "pasa", "pasalo$", "copia", "reenvia", "sube$",
      "lis$", "lisez$", "lire$", "envoie", "envoyer", "ajoute", "ajouter", "inclus$", "incluez$", "inclure$", "joins$", "joindre$", "copie", "transmet", "transfere", "televers", "mets$", "mettez$",
      "leggi", "invia", "inviare", "includi", "aggiungi", "allega", "inoltra", "carica", "metti",
      "leia$", "ler$", "envie$", "envie-", "inclua", "adicione", "anexe", "copie", "encaminhe", "coloque",
      "lees$", "stuur", "verstuur", "voeg", "kopieer",
      "przeczytaj", "wyslij", "dodaj", "skopiuj", "baca$", "kirim", "masukkan", "tambahkan", "salin", "oku$", "gonder", "ekle$", "kopyala", "ارسل", "أرسل", "اقرأ", "أضف",
      "прочита", "прочти", "читай", "отправ", "передай", "перешли", "пришли", "добав", "включи", "вставь", "скопируй", "загрузи", "выгрузи",
      "skicka", "bifoga", "kopiera", "lagg till", "lägg till", "posli", "pošli", "odesli", "odešli", "prilo", "přilo", "zkopiruj", "zkopíruj", "vloz", "vlož", "надішли", "відправ", "перешли", "додай", "скопіюй", "встав", "прочитай",
      "שלח", "העבר", "צרף", "הוסף", "העתק", "קרא", "بفرست", "ارسال", "قرار بده", "اضافه", "کپی", "بخوان", "ضمیمه",
      "laheta", "valita", "kopioi", "liita", "videresend", "kopier", "vedhaeft", "vedhæft", "trimite", "transmite", "copiaz", "redirectioneaz", "tovabbits", "kuldd", "kuldje", "masold",
      "στείλ", "στειλ", "προώθ", "προωθ", "αντίγρ", "αντιγρ", "изпрат", "препрат", "копирай", "hantar", "tuma$", "পাঠা", "legg ved", "legg til", "laeg", "læg"],
    ["পাঠান", "ভেজیں", "بھیجیں", "ใส่", "ส่ง", "อ่าน", "சேர்க்க", "அனுப்ப", "डाल", "भेजें", "भेजो", "पढ़ें", "पढ़ो", "डालें", "读取", "读", "发送", "发给", "发到", "放入", "加入", "附上", "附在", "上传", "复制", "转发", "包含", "传给", "読み", "読ん", "送信", "送っ", "送る", "入れ", "含め", "添付", "追加", "アップロード", "転送", "コピー", "읽", "보내", "전송", "넣", "포함", "첨부", "업로드", "복사", "전달"],
  ),
  chat: role(
    ["samtale", "keskustelu", "beszelgetes", "conversati", "istoric", "razgovor", "pokalb", "zinut", "saruna", "zinojum", "vestlus", "sonumid", "usapan", "mazungumzo", "perbualan", "tro chuyen", "transcripcion", "transcription", "trascrizione", "transcricao", "transcript", "senaste meddelanden", "letzten nachrichten", "συνομιλ", "ιστορικ", "percakapan", "obrolan", "sohbet", "konusma", "rozmow", "histori", "samtal", "chatverlauf", "gesprachsverlauf", "verlauf", "unterhaltung", "historial", "conversacion", "historique", "conversation", "cronologia", "conversazion", "historico", "conversa", "geschiedenis", "gesprek", "истори", "переписк", "разговор", "диалог", "історі", "листуван", "розмов", "konversation", "historik", "konverzac", "historie", "היסטורי", "שיחה", "تاریخچه", "گفتگو"],
    ["কথোপকথন", "گفتگو", "بات چیت", "बातचीत", "สนทนา", "உரையாடல", "聊天记录", "对话", "會話", "会话", "历史记录", "聊天", "会話", "履歴", "チャット", "대화", "채팅", "기록"],
  ),
  secret: role(
    ["token", "kornyezeti valtozo", "miljøvariabl", "ymparistomuuttuj", "promenne prostredi", "premenne prostredia", "variabile de mediu", "περιβάλλοντος", "περιβαλλοντος", "средата", "середовищ", "okruzenja", "aplinkos kintam", "vides mainig", "keskkonnamuutuj", "pembolehubah persekitaran", "lozink", "geslo", "slaptazod", "parole$", "parool", "lykilord", "lykilorð", "wagwoord", "nenosiri", "kata laluan", "nøgle", "nøkkel", "avain", "klic$", "kulcs", "cheie", "kljuc", "raktas", "atslega", "voti$", "sleutels", "kunci", "khoa$", "connection string", "verbindungszeichenfolge", "cadena de conexion", "chaine de connexion", "stringa di connessione", "string de conexao", "verbindingsreeks", "variables d'environnement", "variable d'environnement", "variables de entorno", "umgebungsvariabl", "variabili d'ambiente", "variaveis de ambiente", "omgevingsvariabel", "zmienne srodowisk", "переменные окружения", "переменных окружения", "ortam degisken", "bien moi truong", "miljovariabl", "miljövariabl", "cookie", "kuki", "סיסמ", "κωδικ", "losenord", "adgangskode", "passord", "salasana", "parola", "jelszo", "heslo", "şifre", "passwort", "passworter", "kennwort", "schlussel", "api-schlussel", "zugangsdaten", "anmeldedaten", "contrasena", "clave$", "claves$", "credencial", "mot de passe", "mots de passe", "cle$", "cles$", "identifiants$", "jeton", "password", "chiave", "chiavi", "credenzial", "senha", "chave", "wachtwoord", "sleutel", "парол", "ключ", "токен", "учетн", "код подтвержд", "haslo", "hasla", "klucz", "kata sandi", "kunci api", "sifre", "anahtar", "mat khau", "كلمات المرور", "كلمة المرور", "رمز التحقق", "cerez", "kurtarma ifade", "kurtarma kelime", "zugangsdaten", "pin-code", "pincode", "codigo de verificacion", "code de verification", "kod weryfikacyjny"],
    ["পাসওয়ার্ড", "پاس ورڈ", "环境变量", "環境変数", "환경 변수", "환경변수", "รหัสผ่าน", "ข้อมูลรับรอง", "คุกกี้", "குக்கீ", "கடவுச்சொல்", "पासवर्ड", "密码", "密钥", "令牌", "验证码", "凭据", "憑證", "私钥", "助记词", "パスワード", "秘密鍵", "トークン", "認証コード", "確認コード", "비밀번호", "암호", "토큰", "인증 코드", "인증번호"],
  ),
} as const;

export type RoleName = keyof typeof ROLES;

const LETTER = String.raw`\p{L}`;
const escapeRe = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A stem starts a word; a trailing "$" means the whole word ("no$" is not the start of "node"). */
// One lookbehind in front of each group, not one per word: with a lookbehind per alternative the
// engine re-checked \p{L} for every word at every position (a 2,000-character pattern took 2.8 s
// on its first, interpreted run over a foreign text).
const compile = (r: Role) => {
  const stems = r.word.filter((w) => !w.endsWith("$")).map(escapeRe);
  const whole = r.word.filter((w) => w.endsWith("$")).map((w) => escapeRe(w.slice(0, -1)));
  const groups = [
    stems.length ? String.raw`(?<!${LETTER})(?:${stems.join("|")})` : "",
    whole.length ? String.raw`(?<!${LETTER})(?:${whole.join("|")})(?!${LETTER})` : "",
    ...r.cjk,
  ].filter(Boolean);
  return new RegExp(groups.join("|"), "gu");
};

export const ROLE_RE = Object.fromEntries(Object.entries(ROLES).map(([k, r]) => [k, compile(r)])) as Record<RoleName, RegExp>;
const ROLE_NAMES = Object.keys(ROLE_RE) as RoleName[];

/** Whether folded text (foldForCues) holds a word of the role in any language the lexicon covers. */
export function hasRole(role: RoleName, folded: string): boolean {
  const re = ROLE_RE[role];
  re.lastIndex = 0;
  return re.test(folded);
}

/** Every role a sentence of folded text holds, in ROLES order (the rules pair them; the learned scorer counts them). */
export const rolesIn = (folded: string): RoleName[] => ROLE_NAMES.filter((r) => hasRole(r, folded));

/** Accent-free lower case for Latin letters only (Japanese voiced marks and Cyrillic й are kept). */
export function foldForCues(raw: string): string {
  return raw.normalize("NFKD").replace(/(?<=\p{Script=Latin})\p{M}+/gu, "").normalize("NFKC").toLowerCase();
}

/** Sentences of folded text: split on Latin, CJK and line-break sentence ends. */
export function cueSentences(folded: string): Array<{ start: number; text: string }> {
  const out: Array<{ start: number; text: string }> = [];
  // Also the danda of Devanagari and Bengali (।), the Urdu full stop (۔), the Arabic question mark, Armenian and Ethiopic stops.
  const re = /[.!?;](?=\s|$)|[。！？；\n।॥۔؟։።]/g;
  let start = 0;
  for (let m: RegExpExecArray | null; (m = re.exec(folded)) !== null; ) {
    if (m.index + 1 > start) out.push({ start, text: folded.slice(start, m.index + 1) });
    start = m.index + 1;
  }
  if (start < folded.length) out.push({ start, text: folded.slice(start) });
  return out;
}

/** Whether a text has enough non-English signal to be worth the multilingual pass (any non-ASCII letter). */
export const mayBeForeign = (raw: string) => /[^\x20-\x7e\t\n\r]/.test(raw) || /\b(?:ignora|olvida|envia|envoie|ignoriere|vergiss|stuur|invia|envie|baca|kirim|jangan|abaikan|masukkan|zignoruj|wyslij|gonder|hantar|sentiasa|tuma|kumwambia|mtumiaji|trimite|ikke|ikkje|legg|brukeren|brugeren)\b/i.test(raw);
