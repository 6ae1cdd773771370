// R8, R9, R13 and R14 for text in other languages (cues-multilingual.ts): two roles in one
// sentence make a finding. A credential path is a role in every language (PATH_TARGETS), so
// "lies ~/.ssh/id_rsa" needs no German word for "key". A prohibition ("不要在查询中包含密码",
// "do not put passwords in the query") is not an instruction to move data: a negation right
// before the verb cancels the data roles, though not the concealment role, which is a negation.
import { cueSentences, foldForCues, hasRole, mayBeForeign, ROLE_RE } from "./cues-multilingual";
import { PATH_TARGETS } from "./rules-data";
import type { FindingSink, Scope } from "./sink";
import type { TextView } from "./text-view";
import type { AuditRuleId } from "./types";

const PATH = new RegExp(PATH_TARGETS, "u");
const ONLY_TO = /(?<!\p{L})(?:nur|solo|solamente|unicamente|uniquement|seulement|apenas|somente|alleen|enkel|tylko|только|лише|only)\s+(?:an|a|al|aan|naar|para|to|do|в|до|к)(?!\p{L})|(?:发送|发)给(?:该)?用户(?:本人)?|ユーザー本人|사용자\s*본인|自身の(?:キー|鍵)|自己的(?:密钥|令牌)|(?<!\p{L})(?:eigene[nrs]?\s+(?:schlussel|token)|propia\s+clave|sa\s+propre\s+cle)/u;

/** Every match of a role in the sentence: one whose 14 characters before hold a negation is "negated". */
function moveVerbs(text: string): Array<{ index: number; negated: boolean }> {
  const out: Array<{ index: number; negated: boolean }> = [];
  const re = ROLE_RE.move;
  re.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = re.exec(text)) !== null; ) {
    const before = text.slice(Math.max(0, m.index - 14), m.index);
    // Verb-final languages put the negation after the verb ("전송하지 않습니다", "送信しません"); "nirgendwohin gesendet" before it.
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
    out.push({ index: m.index, negated: hasRole("negation", before) || /^[^.。]{0,6}(?:않|ない|しません|ません|せず|不)/u.test(after) || /(?<!\p{L})(?:nirgend\w*|niemals|nowhere)(?!\p{L})/u.test(before) });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

export function scanMultilingual(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  if (raw.length < 8 || !mayBeForeign(raw)) return;
  const folded = foldForCues(raw);
  // Offsets of the folded text match the raw text when folding kept the length (the usual case).
  const aligned = folded.length === raw.length;
  const discount = scope.tool.describesAttacks;
  const report = (ruleId: AuditRuleId, start: number, text: string, message: string, severity: "high" | "low" = "high") => {
    const s = aligned ? start : 0;
    const e = aligned ? start + text.length : Math.min(raw.length, 160);
    sink.add(scope, ruleId, severity, view.rawEvidence(s, e), `${message} (in another language)`, { discount });
  };
  for (const { start, text } of cueSentences(folded)) {
    if (hasRole("ignore", text) && hasRole("instructions", text)) report("R8", start, text, "instruction override");
    if ((hasRole("negation", text) && hasRole("tell", text) && hasRole("user", text)) || (hasRole("secretly", text) && hasRole("move", text))) report("R9", start, text, "concealment from the user");
    const verbs = moveVerbs(text).filter((v) => !v.negated);
    if (!verbs.length) continue;
    // "… wird nur an keepassxc-cli übergeben": a move limited to one named place is a safeguard.
    // The description's first sentence says what the tool does ("読み取ります" a .env reader reads .env): low there.
    const summary = scope.field === "description" && start === 0;
    if ((hasRole("secret", text) || PATH.test(text)) && !ONLY_TO.test(text)) report("R13", start, text, "instruction to read or send a secret or credential file", summary ? "low" : "high");
    if (hasRole("chat", text)) report("R14", start, text, "asks for the conversation or messages");
  }
}
