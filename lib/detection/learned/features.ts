// Features of the learned scorer (R35, lib/detection/learned/score.ts; docs/rules/R35.md): one
// sparse vector per item (a tool, a prompt, a resource, a resource template, the server
// instructions) from every string a model reads, hashed into 2^18 dimensions, so unseen words cost
// nothing. 2^18 rather than 2^16: at 65,536 slots unrelated n-grams shared weights (ROC AUC on three
// grouped tuning folds 0.9745 -> 0.9788, docs/rules/R35.md); the cost is a 3 MB model file.
// Trained by `npm run train-detector` (scripts/train-detector.ts) on the tuning corpus only.
//
// Why these: the phrase rules fit the wording of the texts they were tuned on. Character n-grams
// over normalised text (normalize.ts: compatibility folding, hidden characters dropped, look-alikes
// mapped) see "exfiltrat", "credent", "ignor" in any inflection, spelling or language that shares
// the stems; word uni/bi-grams see short phrases; a few structural signals (a URL or mailbox at an
// outside host, a credential path, a secret-looking parameter, a sentence addressed to the model,
// secrecy words, text where schemas rarely hold prose, a decodable payload, non-Latin share) carry
// what a bag of words cannot; the rules' own hits come in as features too, so the model can lean on
// them where they are right and add evidence where they are silent.
//
// Two additions for text in other languages (2026-12-06, out of fold on 18,559 tuning cases): words
// of scripts written without spaces (Chinese, Japanese, Thai…) are cut by ICU's dictionary segmenter
// (wordsOf), where WORD saw a whole clause as one word: ROC AUC on those cases 0.938 → 0.953. And the
// concepts of the multilingual cue lexicon (cues-multilingual.ts: "ignore", "instructions", "tell",
// "user", a negation, "secretly", a data-moving verb, the chat, a secret) per sentence, alone and in
// pairs (roleFeatures), so a pairing learned in one language counts in the forty others the lexicon
// covers: AUC 0.9757 → 0.9760 overall, 0.9525 → 0.9535 on Latin-script text in other languages.
import type { CrossIndex } from "@/lib/detection/rules-cross";
import { aggregateSeverity } from "@/lib/detection/severity";
import { expandIdentifier, isInvisible, normalizeText } from "@/lib/detection/normalize";
import { findPayloads } from "@/lib/detection/decode-payloads";
import { cueSentences, foldForCues, rolesIn } from "@/lib/detection/cues-multilingual";
import { SEVERITY_RANK, type AuditFinding, type ExtractedString, type StringField } from "@/lib/detection/types";

export const FEATURE_BITS = 18;
const MASK = (1 << FEATURE_BITS) - 1;

/** A sparse feature vector: parallel arrays, indices ascending and unique. */
export type SparseVector = { index: Int32Array; value: Float64Array };

export type FeatureInput = {
  /** The item's own name (null for server instructions). */
  name: string | null;
  strings: readonly ExtractedString[];
  /** The rules' findings on this item. */
  findings: readonly AuditFinding[];
  index: CrossIndex;
  /** The tool says it detects or guards against attacks (scan-tools toolContext): its examples are framing. */
  describesAttacks: boolean;
};

// Namespaces keep blocks apart in the one hashed space.
const NS_CHAR = 0x811c9dc5;
const NS_WORD = 0x01000193 ^ 0x5bd1e995;
const NS_VALUE = 0x27d4eb2d;
const NS_NAMED = 0x165667b1;

const fnv = (h: number, c: number) => Math.imul(h ^ c, 0x01000193) >>> 0;
function hashString(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = fnv(h, s.charCodeAt(i));
  return h;
}
/** Final avalanche so neighbouring n-grams do not cluster in the low bits. */
const mix = (h: number) => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) & MASK;
};

export const namedFeature = (name: string) => mix(hashString(NS_NAMED, name));

/** Prose a model reads as text; identifiers; values in places where schemas rarely hold prose. */
const PROSE = new Set<StringField>(["description", "title", "annotation", "instructions", "schema-description", "schema-title"]);
/** Identifiers: read as words of their own (expanded), never as prose or a sentence (sentences.ts). */
export const IDENT = new Set<StringField>(["name", "property-name", "required"]);

const WORD = /[\p{L}\p{N}_]+/gu;
// Scripts written without spaces between words: a run of them is a whole clause to WORD, so it is
// cut into words by ICU's dictionary segmenter (built into Node), the same one browsers use.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const segmenter = new Intl.Segmenter("und", { granularity: "word" });

/** The words of `text`: WORD's runs, with runs in unspaced scripts cut into dictionary words. */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = m[0];
    if (!UNSPACED.test(w)) out.push(w);
    else for (const s of segmenter.segment(w)) if (s.isWordLike) out.push(s.segment);
  }
  return out;
}
const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/gu;

const URL_HOST = /\b(?:https?|wss?|ftp):\/\/([^\s/"'<>)\]]+)/g;
const EMAIL = /[\w.+-]{1,64}@([\w-]+(?:\.[\w-]+)*\.[a-z]{2,})\b/g;
const LOCAL_HOST = /^(?:localhost|127\.|0\.0\.0\.0|\[?::1|[\w.-]*\.(?:local|test|internal|localhost|invalid)$|(?:[\w-]+\.)*example\.(?:com|org|net)$|[\w.-]*example$)/;
const SENSITIVE = /~\/\.ssh|\bid_(?:rsa|ed25519|ecdsa)\b|\.aws\/|\bcredentials?\b|(?:^|[\s/"'`])\.env\b|\/etc\/(?:passwd|shadow)|\.npmrc|\.netrc|\.pgpass|kube\/?config|mcp\.json|claude_desktop_config|\.git-credentials|keychain|wallet\.dat|\.pem\b|private[ _]key|cookies?\b|seed phrase|mnemonic|recovery (?:phrase|code)|api[ _-]?keys?\b|access[ _]tokens?\b|passwords?\b|secrets?\b/g;
const SECRET_PARAM = /pass(?:word|wd|phrase)?|token|secret|api ?key|otp|mfa|2fa|totp|seed|mnemonic|private ?key|cvv|card ?number|ssn|cookie|session|credential|auth/;
const CARRIER_PARAM = /histor|conversation|context|messages?|transcript|chat|prompt|notes?|feedback|debug|metadata|memo|extra|comment|trace|telemetry|diagnostic|summary|sidenote|log/;
const ADDRESSED = /\b(?:assistant|ai|model|agent|llm|claude|chatgpt|gpt|copilot|you|your)\b/g;
const IMPERATIVE_START = /^(?:read|send|include|call|pass|append|forward|copy|ignore|use|always|never|do|don't|make|ensure|before|after|first|remember|add|attach|upload|post|set|put|insert|return|execute|run|fetch|collect|gather|retrieve|provide|share|disregard|note|important|must|please|cc|bcc|mirror|sync|transmit|report|log|keep|treat)\b/;
const SECRECY = /\bsilent(?:ly)?\b|\bquiet(?:ly)?\b|\bsecret(?:ly)?\b|\bhidden\b|\bdiscreet(?:ly)?\b|without (?:telling|informing|notifying|asking|mentioning|alerting)|(?:do not|don't|never|no need to) (?:mention|tell|reveal|show|inform|display|surface|notify|alert|disclose)|\bconfidential\b|\bbehind the scenes\b|\bin the background\b|\btransparent(?:ly)? to the user\b|\bnot visible\b|\binvisible\b/g;
const STANDING = /\balways\b|\bevery (?:time|call|request|session|response)\b|\beach (?:time|call|request|session)\b|\bwhenever\b|\bbefore (?:any|every|each|using|calling|answering|responding)\b|\bat all times\b|\bmust\b|\bmandatory\b|\brequired\b/g;
const OVERRIDE = /\bignor\w*|\bdisregard\w*|\boverrid\w*|\bbypass\w*|\bsupersed\w*|previous instructions|system prompt|developer mode|\bjailbreak/g;
const MOVE = /\bsend\w*|\bforward\w*|\bupload\w*|\bpost(?:s|ed|ing)?\b|\btransmit\w*|\bexfiltrat\w*|\bcopy\b|\bcopies\b|\bmirror\w*|\bshare[sd]?\b|\brelay\w*|\bbcc\b|\bwebhook\w*|\bbeacon\w*|\bappend\w*|\battach\w*|\bembed\w*/g;
const OBJECT = /\bconversation\w*|\bchat\b|\bhistory\b|\bmessages?\b|\btranscript\w*|\bcontacts?\b|\benvironment variables?\b|\benv\b|\bssh\b|\bkeys?\b|\btokens?\b/g;

const count = (re: RegExp, s: string) => {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s)) n++;
  return n;
};

/** Hashed counts in a shared dense scratch array (a Map per item cost more than the n-grams themselves). */
const scratch = new Float64Array(MASK + 1);
const touched = new Int32Array(MASK + 1);

/** The item's vector being built: dense values and the indices set, cleared by `take`. */
class Output {
  private readonly dense = new Float64Array(MASK + 1);
  private readonly keys = new Int32Array(MASK + 1);
  private n = 0;
  add(k: number, v: number) {
    if (this.dense[k] === 0) this.keys[this.n++] = k;
    this.dense[k]! += v;
  }
  take(): SparseVector {
    const index = this.keys.slice(0, this.n).sort();
    const value = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) {
      value[i] = this.dense[index[i]!]!;
      this.dense[index[i]!] = 0;
    }
    this.n = 0;
    return { index, value };
  }
}
const output = new Output();
class Accumulator {
  private n = 0;
  add(h: number) {
    if (scratch[h] === 0) touched[this.n++] = h;
    scratch[h]! += 1;
  }
  /** Sublinear term frequency (1 + ln tf), scaled to unit length, times `scale`, into `out`; clears the scratch. */
  flushInto(out: Output, scale: number) {
    let norm = 0;
    for (let i = 0; i < this.n; i++) {
      const v = 1 + Math.log(scratch[touched[i]!]!);
      norm += v * v;
    }
    const f = norm ? scale / Math.sqrt(norm) : 0;
    for (let i = 0; i < this.n; i++) {
      const k = touched[i]!;
      out.add(k, (1 + Math.log(scratch[k]!)) * f);
      scratch[k] = 0;
    }
    this.n = 0;
  }
}

// Every decimal digit is read as 0 by the n-grams: which number a text names ("operation 12",
// "port 8080") says nothing about intent, and hashed digits let the model learn the numbers of
// attack templates ("12 or 24-word recovery phrase") as if they were signs of an attack. The shape
// stays ("169.254.169.254" is still 000.000.000.000; "6-digit code" still reads "0-digit"), and the
// structural features and rules still read the raw text.
const DIGIT = /\p{Nd}/gu;
const foldDigits = (s: string) => s.replace(DIGIT, "0");

/** Character 3-, 4- and 5-grams of `text` (padded with spaces, digits folded), hashed. */
function charGrams(text: string, acc: Accumulator) {
  const t = ` ${foldDigits(text)} `;
  for (let i = 0; i + 3 <= t.length; i++) {
    let h = NS_CHAR;
    for (let k = 0; k < 5 && i + k < t.length; k++) {
      h = fnv(h, t.charCodeAt(i + k));
      if (k >= 2) acc.add(mix(h ^ k));
    }
  }
}

function wordGrams(seed: number, words: readonly string[], acc: Accumulator) {
  let prev = 0;
  for (let i = 0; i < words.length; i++) {
    const h = hashString(seed, foldDigits(words[i]!));
    acc.add(mix(h));
    if (i > 0) acc.add(mix(Math.imul(prev, 31) ^ h ^ 0x9e3779b9));
    prev = h;
  }
}

/** One named feature's value and the display name it was hashed from (for explanations). */
export type NamedValue = [name: string, value: number];

/** Which blocks to compute (all by default; the cross-validation compares subsets). */
export type FeatureBlocks = { chars?: boolean; words?: boolean; structure?: boolean; rules?: boolean };

/** The sparse vector of one item, and the named (non-n-gram) features that went into it. */
export function itemFeatures(input: FeatureInput, blocks: FeatureBlocks = {}): { vector: SparseVector; named: NamedValue[] } {
  const { chars: useChars = true, words: useWords = true, structure = true, rules = true } = blocks;
  const prose: string[] = [];
  const values: string[] = [];
  const idents: string[] = [];
  let descLength = 0;
  let rawHidden = false;
  let payloads: string[] = [];
  for (const s of input.strings) {
    if (!rawHidden && /[^\x20-\x7e\n]/.test(s.text)) for (const ch of s.text) if (ch !== "\n" && ch !== "\t" && isInvisible(ch.codePointAt(0)!)) rawHidden = true;
    if (IDENT.has(s.field)) {
      idents.push(normalizeText(expandIdentifier(s.text)).text);
      continue;
    }
    const text = normalizeText(s.text).text;
    if (s.field === "description" || s.field === "instructions") descLength += text.length;
    (PROSE.has(s.field) ? prose : values).push(text);
    if (s.text.length >= 16 && payloads.length < 4) payloads = payloads.concat(findPayloads(s.text).map((p) => normalizeText(p.text).text));
  }
  const proseText = prose.join("\n");
  const valueText = values.join("\n");
  const all = [idents.join(" "), proseText, valueText, payloads.join("\n")].join("\n");

  const out = output;
  if (useChars) {
    const chars = new Accumulator();
    charGrams(all, chars);
    chars.flushInto(out, 1);
  }
  const allWords = wordsOf(all);
  if (useWords) {
    const words = new Accumulator();
    wordGrams(NS_WORD, allWords, words);
    words.flushInto(out, 1);
    // Words in schema values (defaults, enums, examples, consts, uris) again in their own space:
    // the same words mean more there than in a description.
    const valueWords = new Accumulator();
    wordGrams(NS_VALUE, wordsOf(valueText), valueWords);
    valueWords.flushInto(out, 0.5);
  }

  const named: NamedValue[] = [];
  const put = (name: string, v: number) => {
    if (v && (structure || name.includes(" fired") || name.startsWith("rules ") || name.startsWith("distinct rules") || name.startsWith("discounted"))) named.push([name, v]);
  };
  const self = input.name ? normalizeText(input.name).text.trim() : "";
  const words1 = new Set(allWords);
  let ownRefs = 0;
  for (const w of words1) if (w.length >= 4 && w !== self && input.index.own.has(w)) ownRefs++;
  put("refers to another tool of this server", Math.min(ownRefs, 3) / 3);
  if (input.index.foreignRe) {
    input.index.foreignRe.lastIndex = 0;
    put("names another server's tool", input.index.foreignRe.test(all) ? 1 : 0);
  }
  let outside = 0;
  let urls = 0;
  for (const m of all.matchAll(URL_HOST)) {
    urls++;
    if (!LOCAL_HOST.test(m[1]!)) outside++;
  }
  let mailboxes = 0;
  for (const m of all.matchAll(EMAIL)) if (!LOCAL_HOST.test(m[1]!)) mailboxes++;
  put("URL", Math.min(urls, 3) / 3);
  put("URL at an outside host", Math.min(outside, 2) / 2);
  put("URL or mailbox in a schema value", /https?:\/\/|@[\w-]+\./.test(valueText) ? 1 : 0);
  put("email address at an outside host", Math.min(mailboxes, 2) / 2);
  put("sensitive object", Math.min(count(SENSITIVE, all), 4) / 4);
  const params = idents.slice(1).join(" ");
  put("secret-looking parameter", SECRET_PARAM.test(params) ? 1 : 0);
  put("free-text carrier parameter", CARRIER_PARAM.test(params) ? 1 : 0);
  const sentences = proseText.split(/[.!?。！？\n]+/).map((s) => s.trim()).filter(Boolean);
  const imperative = sentences.filter((s) => IMPERATIVE_START.test(s)).length;
  put("imperative sentences", Math.min(imperative, 4) / 4);
  put("imperative share", sentences.length ? imperative / sentences.length : 0);
  put("addressed to the model", Math.min(count(ADDRESSED, proseText), 4) / 4);
  put("secrecy words", Math.min(count(SECRECY, all), 3) / 3);
  put("standing-order words", Math.min(count(STANDING, all), 4) / 4);
  put("override words", Math.min(count(OVERRIDE, all), 3) / 3);
  put("data-moving verbs", Math.min(count(MOVE, all), 4) / 4);
  put("conversation or secret objects", Math.min(count(OBJECT, all), 4) / 4);
  put("description length (log)", Math.log1p(descLength) / 8);
  put("sentences (log)", Math.log1p(sentences.length) / 4);
  const schemaChars = valueText.length + prose.slice(1).join("").length;
  put("share of text outside the description", all.length ? Math.min(1, schemaChars / all.length) : 0);
  const wordy = values.filter((v) => v.split(" ").length >= 4).length;
  put("wordy schema values", Math.min(wordy, 3) / 3);
  put("longest schema value (log)", Math.log1p(Math.max(0, ...values.map((v) => v.length))) / 6);
  put("parameters (log)", Math.log1p(Math.max(0, idents.length - 1)) / 3);
  put("decodable payload", payloads.length ? 1 : 0);
  put("hidden or escape characters", rawHidden ? 1 : 0);
  const letters = count(LETTER, all);
  const latin = count(LATIN, all);
  const nonLatin = letters ? (letters - latin) / letters : 0;
  put("non-Latin letter share", nonLatin);
  put("mixed scripts", nonLatin > 0.1 && nonLatin < 0.9 ? 1 : 0);
  put("describes attacks (a guard or scanner)", input.describesAttacks ? 1 : 0);
  roleFeatures(all, put);
  if (rules) ruleFeatures(input.findings, put);

  for (const [name, v] of named) out.add(namedFeature(name), v);
  return { vector: out.take(), named };
}

/** Concepts of the multilingual cue lexicon (cues-multilingual.ts ROLES) per sentence: one named feature per role and per pair of roles in one sentence. */
function roleFeatures(text: string, put: (name: string, v: number) => void) {
  const single = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (const { text: s } of cueSentences(foldForCues(text))) {
    const here = rolesIn(s);
    for (const r of here) single.set(r, (single.get(r) ?? 0) + 1);
    for (let i = 0; i < here.length; i++) for (let j = i + 1; j < here.length; j++) pairs.set(`${here[i]}+${here[j]}`, (pairs.get(`${here[i]}+${here[j]}`) ?? 0) + 1);
  }
  for (const [r, n] of single) put(`role ${r}`, Math.min(n, 3) / 3);
  for (const [p, n] of pairs) put(`roles ${p} in one sentence`, Math.min(n, 2) / 2);
}

/** The rules' verdicts on the item: each rule that fired (at low, at medium, at high) and the aggregate. */
function ruleFeatures(findings: readonly AuditFinding[], put: (name: string, v: number) => void) {
  const best = new Map<string, number>();
  let discounted = 0;
  for (const f of findings) {
    if (f.severity === "info") continue;
    if (f.discounted) {
      discounted++;
      continue;
    }
    best.set(f.ruleId, Math.max(best.get(f.ruleId) ?? 0, SEVERITY_RANK[f.severity]));
  }
  for (const [rule, rank] of [...best].sort()) {
    put(`${rule} fired`, 1);
    if (rank >= SEVERITY_RANK.medium) put(`${rule} fired at medium`, 1);
    if (rank >= SEVERITY_RANK.high) put(`${rule} fired at high`, 1);
  }
  put("discounted rule matches", Math.min(discounted, 3) / 3);
  const agg = aggregateSeverity(findings).severity;
  if (agg && agg !== "info") put(`rules aggregate ${agg}`, 1);
  put("distinct rules", Math.min(best.size, 5) / 5);
}
