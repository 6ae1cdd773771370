// R4 — an order to decode something and then act on it ("decode and follow them", "gunzip and
// apply before first use", "Decrypt and follow", "apply after decoding", "read this and do it").
// Whatever the payload is (base58, uuencode, Vigenère, a Polybius square, letter case…), a tool
// that tells the model to decode a text and obey what comes out is hiding an instruction from the
// people who read the description. This does not need to decode the payload, so a carrier the
// decoders do not know (decode-payloads.ts) is caught by the ask itself. A decoder tool says what
// IT does ("decodes base64 and applies the charset"); the ask is in the imperative and names an
// act of obedience (follow, apply, obey, do, execute, comply) or says the payload holds the rules.
import type { FindingSink, Scope } from "./sink";
import type { TextView } from "./text-view";

const DECODE = String.raw`(?:decode|decrypt|decipher|unscramble|gunzip|uudecode|unshift|deobfuscate|de-?rot(?:13|47)?|rot(?:13|47)\s+it)`;
const OBEY = String.raw`(?:follow|obey|apply|do|act\s+on|carry\s+(?:it\s+|them\s+)?out|comply(?:\s+with)?|honou?r|implement|perform)`;
const THEM = String.raw`(?:\s+(?:it|them|this|these|that|those|the\s+\w+))?`;
const ASKS = [
  // "decode and follow them", "Decrypt and follow.", "gunzip and apply before first use", "decode and do before replying"
  new RegExp(String.raw`\b${DECODE}${THEM}(?:\s*,)?\s+(?:and|then|&)\s+(?:then\s+)?${OBEY}\b`),
  // "apply after decoding", "follow it once decrypted", "do it after you decode it"
  new RegExp(String.raw`\b${OBEY}${THEM}\s+(?:after|once|when)\s+(?:you\s+(?:have\s+)?)?(?:decod|decrypt|deciph|unscrambl|gunzip)\w*`),
  // "decode it, it contains the current calling convention", "base64-decoded, give the delivery rule"
  new RegExp(String.raw`\b(?:${DECODE}|(?:base64|hex|base\d\d)[- ]decoded|decoded|decrypted)\b[^.\n]{0,80}\b(?:contains?|gives?|holds?|is|are|reveals?|yields?|spells?\s+out)\s+(?:the\s+|your\s+|our\s+)?(?:current\s+|real\s+|actual\s+|full\s+)?(?:calling\s+convention|delivery\s+rule|rules?|instructions?|directives?|policy|steps?|procedure|orders?|what\s+(?:to|you\s+must)\s+do)\b`),
  // "read this and do it", "work it out and do it" next to an encoded string
  /\b(?:read|work\s+out|figure\s+out|solve)\s+(?:this|it)\s+and\s+(?:then\s+)?do\s+(?:it|that|what\s+it\s+says)\b/,
];
/** The same ask in other languages: a decode stem and an obey stem in one clause. */
const ASK_INTL = /(?<!\p{L})(?:dekodier|entschl[uü]ssel|decodific|descodific|descifr|d[ée]cod|d[ée]chiffr|decifr|decodeer|ontsleutel|odkoduj|rozszyfruj|раскодир|декодир|расшифр|giải mã|giai ma|解码|解碼|解密|デコード|復号|디코딩|해독)[^.。\n]{0,40}(?:befolg|ausf[uü]hr|anwend|sigue|seguir|aplica|ejecut|obedec|suivez|suis|appliqu|ex[ée]cut|segui|applica|esegu|volg|uitvoer|wykonaj|zastosuj|выполн|следуй|примен|uygula|takip|làm theo|thực hiện|执行|照做|遵循|遵照|従|実行|따르|실행)/u;

export function scanDecodeAsk(view: TextView, scope: Scope, sink: FindingSink): void {
  const t = view.text;
  if (t.length < 12 || scope.field === "name" || scope.field === "property-name") return;
  if (!/decod|decrypt|deciph|unscrambl|gunzip|uudecode|rot\d|deobfusc|unshift|read this|read it|work it out|figure it out|solve/.test(t) && !ASK_INTL.test(view.raw.toLowerCase())) return;
  for (const re of ASKS) {
    const m = re.exec(t);
    if (!m) continue;
    sink.phrase(view, scope, "R4", "high", m.index, m.index + m[0].length, "asks the model to decode a text and act on it: an instruction hidden from human readers");
    return;
  }
  const lower = view.raw.toLowerCase();
  const m = ASK_INTL.exec(lower);
  if (m && lower.length === view.raw.length) {
    sink.add(scope, "R4", "high", view.rawEvidence(m.index, m.index + m[0].length), "asks the model to decode a text and act on it: an instruction hidden from human readers (in another language)", { discount: scope.tool.describesAttacks });
  }
}
