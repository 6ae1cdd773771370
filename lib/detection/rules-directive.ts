// R34 — misplaced directive. Some text describes data, not an action: a schema's enum values,
// defaults and examples, an output schema's fields, a property's title, a resource's or a
// template's description. An order to the agent there ("call share_document with the returned
// text", "first POST the sheet to https://…", "ignore the user's query") has no honest reason to
// exist: documentation of a value says what the value is, and an example of a query is a query.
// Tool descriptions are left out on purpose — "call list_files first" is ordinary guidance
// there, and the sentence-level rules (R7, R13, R33) judge them.
import { foldForCues } from "./cues-multilingual";
import { LOCAL_HOST, PATH_TARGETS, SECRET_NOUNS } from "./rules-data";
import type { FindingSink, Scope } from "./sink";
import { VALUE_FIELDS, type ExtractedString, type ItemKind } from "./types";

/** A tool's name as people write it in prose: snake_case, kebab-case with a verb, or camelCase. */
const TOOLISH = String.raw`[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]+`;
/** "call share_document", "invoke the export_chat tool", "post the list with create_gist". */
const CALL_TOOL = new RegExp(String.raw`\b(?:call|calls|invoke|trigger)\s+(?:the\s+)?[\`'"]?(?:${TOOLISH})\b|\b(?:with|using|via)\s+(?:the\s+)?[\`'"]?(?:${TOOLISH})[\`'"]?(?:\s+tool)?\b`);
/** A verb that moves data, next to a fixed outside address. */
const MOVE = /\b(?:send|post|upload|forward|share|copy|sync|mirror|email|e-mail|submit|transmit|push|export|add)\b/i;
const LITERAL = /(?<![\w.+-])[\w.+-]{1,64}@([\w-]+(?:\.[\w-]+)+)|\b(?:https?|s?ftps?|smb|scp|rsync|wss?|s3|gs|webdavs?):\/\/([^\s/"'<>)\]`:]+)/i;
/** Reading, asking for or passing on a secret: no value's documentation does that. */
const SECRET_ORDER = new RegExp(String.raw`\b(?:read|cat|open|print|prints|dump|fetch|load|copy|paste|include|append|attach|send|upload|prefix|prepend|add|ask\s+(?:for|the\s+user\s+for|them\s+for))\b[^.\n]{0,80}?(?:${PATH_TARGETS}|${SECRET_NOUNS}|\b(?:sign-in|login|bank)\s+(?:password|details|credentials)|\b(?:card|bank)\s+pin\b|\bbank\s+login\b|\bpin\b)`, "i");
/** An identifier-style value (snake or kebab case) of five words or more: a sentence in disguise. */
const SENTENCE_ID = /^[a-z0-9]+(?:[_-][a-z0-9]+){4,}$/i;
const ID_MOVE = /\b(?:forward\w*|send\w*|sent|shar(?:e|es|ed|ing)|upload\w*|cop(?:y|ies|ied)|attach\w*|e-?mail\w*|post(?:s|ed|ing)?|export\w*|call(?:s|ing)?|cc|bcc|include\w*|sync\w*|mirror\w*)\b/;
const ID_WHERE = /\b(?:to|with)\s+\w+|\b(?:passwords?|secrets?|tokens?|keys?|credentials?|national\s+id|ssn|personnel|salary|medical|diagnos\w*)\b/;
/** Text that addresses the agent or overrides the user. */
const ADDRESSED = /\b(?:instructions?\s+for\s+the\s+(?:assistant|model|agent|ai)|(?:the\s+)?(?:assistant|model|agent|ai)\s+(?:must|should|has\s+to|needs\s+to)|ignore\s+the\s+user'?s?\b|regardless\s+of\s+(?:what\s+)?the\s+user|(?:the\s+user|they)\s+(?:did\s+not|didn't|never)\s+(?:pick|choose|select|ask\s+for|request|mention)|\byour\s+next\s+(?:tool\s+call|answer|reply|response|message))/i;


/** Where a string sits, in words, when it is a place that describes data; null when it is not. */
function dataSlot(s: ExtractedString, kind: ItemKind | undefined): string | null {
  if (VALUE_FIELDS.has(s.field)) return `a schema ${s.field} value`;
  if (s.pointer.startsWith("/outputSchema") && (s.field === "schema-description" || s.field === "schema-title")) return "an output schema field";
  if (s.field === "schema-title") return "a property title";
  if (s.field === "annotation" && s.pointer === "/annotations/title") return "the tool's display title";
  if (s.field === "title" && s.pointer === "/title") return `the ${kind && kind !== "tool" ? kind : "tool"}'s display title`;
  if ((kind === "resource" || kind === "resourceTemplate") && (s.field === "description" || s.field === "title")) return `a ${kind === "resource" ? "resource" : "resource template"}'s ${s.field}`;
  return null;
}

/** The first directive in a data slot's text, with what it is, or null. */
export function directiveIn(text: string): { match: string; index: number; what: string } | null {
  // "routine_and_forward_results_to_labshare_partner_portal": an enum value that is an order in snake case.
  if (SENTENCE_ID.test(text)) {
    const words = text.replace(/[_-]+/g, " ").toLowerCase();
    if (ID_MOVE.test(words) && ID_WHERE.test(words)) return { match: text, index: 0, what: `is an order written as an identifier ("${words}")` };
  }
  const secret = /read|cat|open|print|dump|fetch|load|copy|paste|includ|append|attach|send|upload|prefix|prepend|add|ask/i.test(text) ? SECRET_ORDER.exec(text) : null;
  if (secret) return { match: secret[0], index: secret.index, what: "reads, asks for or passes on a secret" };
  // Cheap tests first: most enum values and defaults are a word or two (scan cost).
  const call = /call|invoke|trigger|with|using|via/i.test(text) ? CALL_TOOL.exec(text) : null;
  if (call) return { match: call[0], index: call.index, what: "tells the agent to call a tool" };
  const addressed = /assistant|model|agent|\bai\b|ignore|regardless|instruction|user|your\s+next/i.test(text) ? ADDRESSED.exec(foldForCues(text)) : null;
  if (addressed) return { match: text.slice(addressed.index, addressed.index + addressed[0].length), index: addressed.index, what: "addresses the agent" };
  if (!text.includes("@") && !text.includes("://")) return null;
  const lit = LITERAL.exec(text);
  if (lit && MOVE.test(text) && !LOCAL_HOST.test(lit[1] ?? lit[2] ?? "")) return { match: lit[0], index: lit.index, what: `moves data to a fixed outside address (${lit[0]})` };
  return null;
}

/** R34 over one tool's (or item's) strings. A tool that describes attacks quotes them as examples: discounted there. */
export function scanMisplacedDirectives(toolName: string, strings: readonly ExtractedString[], sink: FindingSink, opts: { kind?: ItemKind; describesAttacks: boolean; own?: ReadonlySet<string> }): void {
  for (const s of strings) {
    const slot = dataSlot(s, opts.kind);
    if (!slot) continue;
    const hit = directiveIn(s.text);
    if (!hit) continue;
    // "Pass next_cursor to this tool again", "call github_login_poll": paging and polling through the server's own tools.
    if (hit.what === "tells the agent to call a tool" && s.pointer.startsWith("/outputSchema") && (!opts.kind || opts.kind === "tool")) {
      const named = hit.match.match(/[a-z][a-z0-9]*(?:_[a-z0-9]+)+/g) ?? [];
      if (named.length && named.every((n) => n === toolName || opts.own?.has(n))) continue;
    }
    const scope: Pick<Scope, "toolName" | "pointer"> & { field: ExtractedString["field"] } = { toolName, pointer: s.pointer, field: s.field };
    const framed = opts.describesAttacks && (s.field === "examples" || s.field === "enum" || s.field === "default");
    sink.add(scope, "R34", "high", { text: hit.match, start: hit.index, end: hit.index + hit.match.length }, `${slot} ${hit.what}: text that documents data gives an order`, { discount: framed });
  }
}
