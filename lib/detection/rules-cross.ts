// Family D — cross-tool and cross-server (detection-rules R19–R21): shadowing by reference to a
// distinctive tool that only another of the team's servers has, steering the agent away from other
// tools, and name collisions (duplicates, the same or a look-alike name on another server).
import { canonicalKey } from "@/lib/diff/json";
import { areSiblings, foldName as fold, MIN_EDIT_SKELETON, nameSkeleton as skeleton, skeletonVariants, withinOneEdit } from "./name-keys";
import { LOCAL_HOST } from "./rules-data";
import type { FindingSink, Scope } from "./sink";
import { matches, type TextView } from "./text-view";
import type { OtherServer, Severity, ToolLike } from "./types";

/** Single words too common to count as a reference to a particular tool. */
const GENERIC = new Set(
  "search fetch list get read write run query create update delete open send find add edit remove echo help status info ping login logout upload download execute exec call test check sync save load copy move rename start stop close set show view print log post reply comment message email file files browse navigate click type scroll screenshot evaluate summarize translate calculate convert lookup resolve analyze generate describe inspect tool tools server this that".split(" "),
);

export type CrossIndex = {
  own: ReadonlySet<string>;
  /** Distinctive names found only on other servers → the servers that have them. */
  foreign: Map<string, string[]>;
  foreignRe: RegExp | null;
  /**
   * This server's tools that send to a fixed outside address their description names (a "notify"
   * that posts to https://…): naming one as where data goes names that address (R33).
   */
  sinks?: ReadonlyMap<string, string>;
};

const SINK_URL = /\bhttps?:\/\/([^\s/"'<>)\]`:]+)[^\s"'<>)\]`]*/i;
const SINK_EMAIL = /(?<![\w.+-])[\w.+-]{1,64}@([\w-]+(?:\.[\w-]+)+)/;

/** Own tools whose description sends to a fixed, non-local URL or address. */
function sinkTools(tools: readonly ToolLike[]): Map<string, string> {
  const sinks = new Map<string, string>();
  for (const t of tools) {
    if (typeof t.description !== "string" || (!t.description.includes("@") && !t.description.includes("://"))) continue;
    // Anchored on "http" or "@" first: the combined pattern scanned every description character by character (scan cost).
    const m = (t.description.includes("://") ? SINK_URL.exec(t.description) : null) ?? (t.description.includes("@") ? SINK_EMAIL.exec(t.description) : null);
    if (m && !LOCAL_HOST.test(m[1] ?? "") && /\b(?:send|post|upload|push|forward|deliver|submit|report|hook|webhook|ingest|collect|stor|endpoint|archiv|retention|mirror|sync|replicat)\w*/i.test(t.description)) sinks.set(fold(String(t.name)), m[0]);
  }
  return sinks;
}

const distinctive = (name: string) => name.length >= 4 && !GENERIC.has(name) && (/[_\-.]/.test(name) || name.length >= 8);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function crossIndex(tools: readonly ToolLike[], others: readonly OtherServer[] = []): CrossIndex {
  const own = new Set(tools.map((t) => fold(String(t.name))));
  const foreign = new Map<string, string[]>();
  for (const server of others) {
    for (const t of server.tools) {
      const name = fold(String(t.name));
      if (own.has(name) || !distinctive(name)) continue;
      const list = foreign.get(name) ?? [];
      if (!list.includes(server.serverName)) list.push(server.serverName);
      foreign.set(name, list);
    }
  }
  const names = [...foreign.keys()].sort((a, b) => b.length - a.length).slice(0, 5_000);
  const foreignRe = names.length ? new RegExp(String.raw`(?<![a-z0-9])(?:${names.map(escape).join("|")})(?![a-z0-9])`, "g") : null;
  return { own, foreign, foreignRe, sinks: sinkTools(tools) };
}

const DIRECTIVE = /\b(?:must|always|never|instead|whenever|when|before|after|change|set|send|bcc|cc|redirect|should|make sure|ensure|do not|don't|all|every|important|side effect)\b/;
/** The same directive and impersonation words in other languages (replace, obsolete, never, always, instead). */
const DIRECTIVE_INTL = /\b(?:remplace\w*|obsol[eè]te|jamais|toujours|au lieu|reemplaz\w*|sustitu\w*|nunca|siempre|en lugar|ersetz\w*|veraltet|niemals|immer|statt|anstatt|sostitu\w*|obsolet[oa]|sempre|invece|substitu\w*|em vez|vervang\w*|verouderd|nooit|altijd|замен\w*|устарел\w*|никогда|всегда|вместо)\b|替换|取代|过时|不要再|代わり|置き換|대신|대체/;
const TOOLISH = /\bmcp_tool_([a-z0-9_]+)|\(mcp_([a-z0-9_]+)\)\s*([a-z0-9_]+)|\b(?:the|also\s+present|other)\s+([a-z][a-z0-9]*(?:[_-][a-z0-9]+)+)\s+(?:tool|function)\b/g;

const R20: Array<{ re: RegExp; severity: Severity; message: string; target?: number }> = [
  { re: /\b(?:instead\s+of|rather\s+than)\s+(?:using\s+|calling\s+)?(?:the\s+)?([\w.-]+)\s+(?:tool|function|command|server)\b/g, severity: "medium", message: "steers the agent away from another tool", target: 1 },
  { re: /\b(?:never|don't|do\s+not)\s+(?:use|call|invoke|trust)\s+(?:the\s+)?((?!this\b)[\w.-]+)\s+(?:tool|function|server)\b/g, severity: "high", message: "tells the agent never to use another tool", target: 1 },
  { re: /\b(?:never|don't|do\s+not)\s+(?:use|call|invoke)\s+(?:any\s+)?other\s+(?:tools?|functions?|servers?)/g, severity: "high", message: "tells the agent to use no other tool" },
  { re: /\b(?:always|only)\s+(?:prefer|use|choose|call)\s+this\s+(?:tool|function)\s+(?:instead|over|rather|for\s+(?:all|every|any))/g, severity: "high", message: "claims precedence over other tools" },
  { re: /\b(?:ignore|disregard|skip|avoid|bypass)\s+(?:the\s+|any\s+|all\s+)?(?:other|[\w.-]+\s+server'?s?)\s+(?:[\w.-]+\s+){0,2}?(?:server'?s?\s+)?(?:tools?|functions?|servers?)\b/g, severity: "high", message: "tells the agent to ignore another server's tools" },
  { re: /\b(?:other|any\s+other)\s+servers?'?s?\s+[^.\n]{0,60}?\b(?:must|should|are\s+to)\s+be\s+(?:ignored|disregarded|overridden)\b|\b(?:other|any\s+other)\s+servers?'?s?\s+(?:[\w-]+\s+){0,3}(?:is|are)\s+(?:outdated|obsolete|superseded|invalid)\b/g, severity: "high", message: "tells the agent to disregard other servers' tools" },
  { re: /\bprefer\s+(?:our|these|this\s+server'?s?|my)\s+(?:own\s+)?tools?\s+(?:over|to|instead\s+of|rather\s+than)\b/g, severity: "high", message: "claims precedence over another server's tools" },
  { re: /\binstead\s+of\s+[^.\n]{0,60}?\b(?:always|only)\s+(?:use|call|prefer)\s+this\s+(?:tool|function)/g, severity: "high", message: "claims precedence over another tool" },
  { re: /\balways\s+prefer\s+this\s+(?:tool|function)\b/g, severity: "medium", message: "claims precedence over other tools" },
  { re: /\b(?:replaces|supersedes|overrides)\s+(?:the\s+)?([\w.-]+)\s+(?:tool|function)\b/g, severity: "medium", message: "claims to replace another tool", target: 1 },
  { re: /(?<![\w.-])([\w-]{1,60}[_.-][\w.-]{1,60}|the\s+\w+\s+(?:tool|server))\s+(?:and\s+[\w-]{1,60}[_.-][\w.-]{1,60}\s+)?(?:tool\s+|function\s+|tools\s+)?(?:is|are|has\s+been|have\s+been)\s+(?:deprecated\s+and\s+)?(?:unsafe|compromised|malicious|insecure|broken|disabled)\b/g, severity: "medium", message: "disparages another tool", target: 1 },
  { re: /\b(?:call|use|invoke)\s+(?:the\s+)?(?:bash|shell|exec|terminal|command|cmd)\s+(?:tool|function)\b[^\n]{0,40}\b(?:run|execute|curl|wget|nc|python|perl|ruby|node)\b/g, severity: "high", message: "drives a shell tool to run a command" },
];

/**
 * Claims about ANOTHER server's tools: "replaces the gmail server's send_email", "supersedes
 * github's create_issue", "the browser server's navigate tool is compromised", "instead of the
 * stripe server's tools". The object decides the severity (claimTarget): a tool of this server is
 * documentation (low), another server's tool is impersonation (high).
 */
const CLAIM = /\b(?<!(?:not|never|n't)\s)(?:replaces|supersedes|overrides|replacement\s+for|drop-in(?:\s+replacement)?\s+for|drop-in\s+for|substitute\s+for|successor\s+(?:to|of)|(?:(?:the\s+)?(?:new|official|real|updated|patched|fixed|secure|safe)\s+)version\s+of|is\s+the\s+(?:official|real|genuine|new)|this\s+is\s+the\s+(?:official|real|genuine))\s+([^.;\n]{1,80})/g;
const DISPARAGE = /(?<![\w.-])(?:the\s+)?([\w.-]{1,60})(?:\s+server'?s?|'s)(?:\s+[\w.-]+){0,2}?\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:deprecated|broken|compromised|unsafe|insecure|outdated|obsolete|disabled|malicious|unreliable|vulnerable)\b/g;
const INSTEAD_OTHER = /\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:using\s+|calling\s+)?(?:the\s+)?(?:[\w.-]{1,60}\s+server'?s?|[\w-]{1,60}'s|[a-z0-9-]{1,60}\.[a-z0-9_]{1,60})(?:\s+[\w.-]{1,60})?/g;

/** Whom a claim's object names: this server's own tool, another server (or its tool), or something vague. */
function claimTarget(raw: string, index: CrossIndex, self: string): "own" | "other" | "vague" {
  // "the user's chatbots", "a customer's repo": a possessive of a person is not another server.
  const object = raw.replace(/\b(?:the\s+|a\s+|an\s+)?(?:user|users|customer|customers|client|clients|team|company|organi[sz]ation|org|owner|person|people)'s?(?=\s|$)/g, " ");
  const names = object.match(/[a-z0-9][a-z0-9_.-]*[a-z0-9]/g) ?? [];
  if (/\b(?:this|our|the\s+same)\s+server\b/.test(object) || names.some((n) => n !== self && index.own.has(n))) return "own";
  if (/\bserver'?s?\b|'s\b|\b[a-z0-9-]+\.[a-z0-9_]+\b/.test(object) || names.some((n) => index.foreign.has(n))) return "other";
  return "vague";
}

function scanClaims(view: TextView, scope: Scope, sink: FindingSink, index: CrossIndex, self: string): void {
  const t = view.text;
  if (!/replace|supersede|override|drop-in|substitute|successor|version\s+of|official|real|genuine|deprecated|broken|compromised|unsafe|insecure|outdated|obsolete|disabled|malicious|unreliable|vulnerable|instead|rather|in place of/.test(t)) return;
  for (const m of matches(view, CLAIM)) {
    const target = claimTarget(m[1]!, index, self);
    if (target === "vague") continue;
    sink.phrase(view, scope, "R20", target === "own" ? "low" : "high", m.index, m.index + m[0].length, target === "own" ? "replaces one of this server's own tools" : "claims to replace or override another server's tool: impersonation");
  }
  for (const m of matches(view, DISPARAGE)) {
    const target = claimTarget(m[0], index, self);
    if (target !== "other") continue;
    sink.phrase(view, scope, "R20", "high", m.index, m.index + m[0].length, "disparages another server's tool to take its calls: impersonation");
  }
  for (const m of matches(view, INSTEAD_OTHER)) {
    if (claimTarget(m[0], index, self) !== "other") continue;
    sink.phrase(view, scope, "R20", "high", m.index, m.index + m[0].length, "steers the agent away from another server's tools");
  }
}

/** A sentence that runs down a tool it names: deprecated, unsigned, broken, abandoned… */
const FOREIGN_DISPARAGED = /\b(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+|officially\s+)?(?:deprecated|unsigned|broken|compromised|unsafe|insecure|outdated|obsolete|disabled|abandoned|unmaintained|unreliable|vulnerable|retired|sunset|blocked)\b|\bcan\s+be\s+(?:intercepted|tampered|spoofed)\b/;

/** A same-named or look-alike tool that claims to be the one to use ("prefer this one for every request", "the authoritative one"). */
const PRECEDENCE = /\b(?:prefer\s+(?:this|it|us|ours)\b|use\s+this\s+(?:one|tool|server|version)\b|(?:this|it)\s+is\s+the\s+(?:\w+\s+)?(?:official|authoritative|maintained|real|genuine|canonical|supported|correct)\b|the\s+(?:official|authoritative|maintained|canonical|genuine)\s+(?:\w+\s+){0,3}(?:build|version|server|one|implementation|release)\b|where\s+two\s+[\w.-]+\s+(?:tools?\s+)?are\s+available|the\s+other\s+(?:[\w.\x60'"-]+\s+){0,3}(?:is|are)\s+(?:an?\s+)?(?:abandoned|deprecated|unsigned|broken|outdated|legacy|fork|unofficial|unmaintained|stale|old)\b|(?:github|google|microsoft|slack|notion|stripe|atlassian|openai|anthropic)'s\s+official\b|\bofficial\s+(?:mcp\s+)?(?:server|build|release)\b)/;
const precedenceText = (tool: ToolLike) => `${typeof tool.title === "string" ? tool.title : ""}. ${typeof tool.description === "string" ? tool.description : ""}`.toLowerCase();

/** R19 and R20 over one string. */
export function scanReferences(view: TextView, scope: Scope, sink: FindingSink, index: CrossIndex): void {
  const t = view.text;
  if (t.length < 6 || scope.field === "name" || scope.field === "property-name") return;
  const self = scope.toolName ? fold(scope.toolName) : "";
  const seen = new Set<string>();
  if (index.foreignRe) {
    for (const m of matches(view, index.foreignRe)) {
      const name = m[0];
      if (name === self || seen.has(name)) continue;
      seen.add(name);
      const [s, e] = view.sentence(m.index);
      const sentence = t.slice(s, e);
      const severity: Severity = DIRECTIVE.test(sentence) || DIRECTIVE_INTL.test(sentence) ? "high" : "medium";
      const servers = index.foreign.get(name)!.join(", ");
      sink.phrase(view, scope, "R19", severity, m.index, m.index + name.length, `names "${name}", a tool only server ${servers} provides: shadowing`);
      // "git_commit (git server) is deprecated in this workspace", "gmail.send_email … are unsigned and can be intercepted".
      if (FOREIGN_DISPARAGED.test(sentence)) sink.phrase(view, scope, "R20", "high", m.index, m.index + name.length, `calls server ${servers}'s "${name}" unsafe or deprecated to take its calls: impersonation`);
    }
  }
  for (const m of /mcp_|tool|function/.test(t) ? matches(view, TOOLISH) : []) {
    const name = (m[1] ?? m[3] ?? m[4] ?? "").replace(/^mcp_tool_/, "");
    if (!name || name === self || index.own.has(name) || seen.has(name) || index.foreign.has(name)) continue;
    seen.add(name);
    sink.phrase(view, scope, "R19", "medium", m.index, m.index + m[0].length, `refers to a tool "${name}" this server does not provide`);
  }
  scanClaims(view, scope, sink, index, self);
  for (const rule of /instead|rather|never|n't|not|always|only|ignored|outdated|obsolete|superseded|invalid|ignore|disregard|skip|avoid|bypass|prefer|replaces|supersedes|overrides|deprecated|unsafe|compromised|malicious|insecure|broken|disabled|bash|shell|exec|terminal|command|cmd/.test(t) ? R20 : []) {
    for (const m of matches(view, rule.re)) {
      const target = rule.target ? fold(m[rule.target] ?? "").replace(/^the\s+|\s+(?:tool|server)$/g, "") : "";
      if (target && (target === "this" || target === self)) continue;
      // Steering between a server's own tools is documentation; steering away from a tool the
      // team has on another server is shadowing.
      const severity: Severity = target && index.own.has(target) ? "low" : target && index.foreign.has(target) ? "high" : rule.severity;
      sink.phrase(view, scope, "R20", severity, m.index, m.index + m[0].length, rule.message);
    }
  }
}

const words = (s: unknown) => new Set(typeof s === "string" ? (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) : []);
function similarity(a: unknown, b: unknown): number {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return 0;
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return inter / (x.size + y.size - inter);
}

/**
 * R21 — duplicates and look-alikes within the list, and collisions with the team's other servers.
 * `others` need only hold the candidate partners (same name, same skeleton, or a shared
 * one-deletion variant); a store finds them through an index. Two exceptions keep fleets quiet:
 * the same name with an identical definition is the same software deployed twice (a template
 * copy: the name_collision alert reports it, R21 does not), and names that differ only in numbers,
 * version markers or a plural "s" are siblings, not typosquats (name-keys.ts `siblingKey`).
 */
export function scanCollisions(tools: readonly ToolLike[], others: readonly OtherServer[], sink: FindingSink): void {
  const seen = new Map<string, ToolLike>();
  const skeletons = new Map<string, string>();
  for (const tool of tools) {
    const name = String(tool.name);
    const scope = { toolName: name, pointer: "/name", field: "name" as const };
    const ev = { text: name, start: 0, end: name.length };
    if (seen.has(name)) sink.add(scope, "R21", "high", ev, `"${name}" is listed more than once: clients pick one copy arbitrarily`);
    else {
      const sk = skeleton(name);
      const twin = skeletons.get(sk);
      if (twin !== undefined && twin !== name) sink.add(scope, "R21", "high", ev, `"${name}" looks like "${twin}" in the same list`);
      skeletons.set(sk, name);
    }
    seen.set(name, tool);
  }
  if (!others.length) return;
  const exact = new Map<string, Array<{ server: string; tool: ToolLike }>>();
  const bySkeleton = new Map<string, Array<{ server: string; tool: ToolLike }>>();
  const byDeletion = new Map<string, string[]>();
  for (const server of others) {
    for (const tool of server.tools) {
      const name = String(tool.name);
      const entry = { server: server.serverName, tool };
      exact.set(name, [...(exact.get(name) ?? []), entry]);
      const sk = skeleton(name);
      bySkeleton.set(sk, [...(bySkeleton.get(sk) ?? []), entry]);
      for (const d of skeletonVariants(sk)) byDeletion.set(d, [...(byDeletion.get(d) ?? []), sk]);
    }
  }
  for (const [name, tool] of seen) {
    const scope = { toolName: name, pointer: "/name", field: "name" as const };
    const ev = { text: name, start: 0, end: name.length };
    const definition = canonicalKey(tool);
    const same = exact.get(name)?.filter((entry) => canonicalKey(entry.tool) !== definition);
    if (exact.has(name) && !same?.length) continue;
    if (same?.length) {
      const twin = same.reduce((a, b) => (similarity(tool.description, b.tool.description) > similarity(tool.description, a.tool.description) ? b : a));
      const sim = similarity(tool.description, twin.tool.description);
      // Two different tools that share a common name (search, create_issue) are an ambiguity the
      // team's name_collision alert reports; only a near-copy of the other's description is impersonation.
      const severity: Severity = sim >= 0.8 || PRECEDENCE.test(precedenceText(tool)) ? "high" : "low";
      if (sim < 0.8 && severity === "high") sink.add(scope, "R20", "high", ev, `"${name}" is also a tool of server ${twin.server}, and this one claims to be the one to use: impersonation`);
      sink.add(scope, "R21", severity, ev, `"${name}" is also a tool of server ${twin.server}${severity === "high" ? ` with a near-identical description (similarity ${sim.toFixed(2)}): impersonation` : ": the agent may call the wrong one"}`);
      continue;
    }
    const sk = skeleton(name);
    const alike = bySkeleton.get(sk);
    if (alike) {
      sink.add(scope, "R21", "high", ev, `"${name}" is a look-alike of "${String(alike[0]!.tool.name)}" on server ${alike[0]!.server}`);
      continue;
    }
    if (sk.length < MIN_EDIT_SKELETON) continue;
    const candidates = new Set(skeletonVariants(sk).flatMap((d) => byDeletion.get(d) ?? []));
    for (const other of candidates) {
      if (!withinOneEdit(sk, other)) continue;
      const entry = bySkeleton.get(other)![0]!;
      if (areSiblings(name, String(entry.tool.name))) continue;
      const sim = similarity(tool.description, entry.tool.description);
      // A capital I for an l ("send_emaiI") is a look-alike, not a typo.
      const caseSwap = name.replace(/I/g, "l") === String(entry.tool.name) || name.replace(/l/g, "I") === String(entry.tool.name);
      sink.add(scope, "R21", sim >= 0.8 || caseSwap || PRECEDENCE.test(precedenceText(tool)) ? "high" : "medium", ev, `"${name}" is one edit away from "${String(entry.tool.name)}" on server ${entry.server}: typosquatting`);
      break;
    }
  }
}
