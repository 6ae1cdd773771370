import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { visibleText } from "@/lib/diff";
import { atLeast, buildAuditReport, renderAuditText, scanTools, toSarif, type AuditFinding, type OtherServer, type PromptLike, type ResourceLike, type Severity, type ToolLike } from "@/lib/detection";
import { extractToolList, type LoadedList } from "./diff-command";

const HELP = `usage: toolwatch scan <file|-> [--json|--sarif] [--fail-on critical|high|medium|low]

Scans a tool list offline for tool poisoning: hidden characters, instructions aimed at the agent,
data exfiltration, shadowing of other tools and schema-level poisoning (rules R1–R25 of
docs/detection-rules.md). The input is a JSON file ("-" reads standard input) holding a tools/list
result ({"tools": [...]}), a JSON-RPC response wrapping one, a bare array of tools, or the output
of "toolwatch snapshot --json" (whose server instructions are scanned too). A server's whole
surface may be given as one object: {"tools": [...], "prompts": [...], "resources": [...],
"resourceTemplates": [...], "instructions": "..."} (any of the lists may be absent); prompts,
resources and templates are scanned like tools and their findings name the item's kind.

The agent's other servers decide what counts as shadowing or impersonating their tools (R19, R21):
give each with --other, or put them in the input as "otherServers": [{"name": "github", "tools":
[...]}] (the shape toolwatch's own corpus uses; "serverName" is accepted for "name").

  --json           print the report as JSON (stable shape, "version": 1)
  --sarif          print SARIF 2.1.0, for code scanning in CI
  --fail-on LEVEL  exit 1 if the report's severity is LEVEL or above; a tool's severity rises with
                   the number of distinct rules that fire on it
  --all            also list info findings (plain URLs) in the text output
  --no-learned     the rules alone, without the learned scorer (R35, docs/rules/R35.md)
  --other [NAME=]FILE
                   another server the same agent connects to (any input shape above; NAME
                   defaults to the file's name without its extension); repeatable

Exit 0 otherwise; 2 for bad usage or input that cannot be read as a tool list.`;

export type ScanIo = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdin?: NodeJS.ReadableStream };

const LEVELS = ["critical", "high", "medium", "low"] as const;

export async function runScanCommand(argv: string[], io: ScanIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  const usage = (message: string) => (io.stderr.write(`toolwatch scan: ${message}\n\n${HELP}\n`), 2);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: "boolean", default: false },
        sarif: { type: "boolean", default: false },
        all: { type: "boolean", default: false },
        "fail-on": { type: "string" },
        other: { type: "string", multiple: true, default: [] },
        "no-learned": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return io.stdout.write(`${HELP}\n`), 0;
  if (positionals.length !== 1) return usage(`expected one file (or - for standard input), got ${positionals.length}`);
  if (values.json && values.sarif) return usage("--json and --sarif are exclusive");
  const failOn = values["fail-on"]?.toLowerCase();
  if (failOn !== undefined && !(LEVELS as readonly string[]).includes(failOn)) return usage("--fail-on takes critical, high, medium or low");

  const source = positionals[0]!;
  let text: string;
  let list: LoadedList;
  let instructions: string | null;
  let surface: Surface;
  let otherServers: OtherServer[];
  try {
    text = source === "-" ? await readStream(io.stdin ?? process.stdin) : await readInput(source);
    const json: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    surface = surfaceOf(json);
    list = surface.hasItems && !hasToolList(json) ? { tools: [], format: "server surface", warnings: [] } : extractToolList(json);
    instructions = instructionsOf(json);
    otherServers = [...otherServersOf(json), ...(await Promise.all(values.other.map(readOtherServer)))];
  } catch (error) {
    const reason = error instanceof SyntaxError ? `not valid JSON (${error.message})` : (error as Error).message;
    io.stderr.write(`toolwatch scan: ${visibleText(source === "-" ? "standard input" : source)}: ${visibleText(reason)}\n`);
    return 2;
  }
  for (const warning of list.warnings) io.stderr.write(`toolwatch scan: warning: ${visibleText(warning)}\n`);

  const findings = scanTools(list.tools, { learned: !values["no-learned"], otherServers, instructions, prompts: surface.prompts, resources: surface.resources, resourceTemplates: surface.resourceTemplates });
  const report = buildAuditReport(findings, { toolCount: list.tools.length });
  const artifactUri = source === "-" ? "stdin" : source;
  if (values.sarif) io.stdout.write(`${JSON.stringify(toSarif(report, { artifactUri, locate: locator(text, list.tools) }), null, 2)}\n`);
  else if (values.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const items = [[list.tools.length, "tools"], [surface.prompts.length, "prompts"], [surface.resources.length, "resources"], [surface.resourceTemplates.length, "resource templates"]] as const;
    const counted = items.filter(([n], i) => i === 0 || n > 0).map(([n, what]) => `${n} ${what}`).join(", ");
    io.stdout.write(`${visibleText(artifactUri)} (${counted}, ${list.format})\n\n`);
    io.stdout.write(`${renderAuditText(report, { minSeverity: values.all ? "info" : "low" })}\n`);
  }
  const severity = report.summary.severity;
  if (failOn && severity && atLeast(severity, failOn as Severity)) {
    if (!values.json && !values.sarif) io.stderr.write(`toolwatch scan: failing: severity ${severity} is at or above --fail-on ${failOn}\n`);
    return 1;
  }
  return 0;
}

async function readInput(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : `cannot be read (${code ?? (error as Error).message})`, { cause: error });
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

type Surface = { prompts: PromptLike[]; resources: ResourceLike[]; resourceTemplates: ResourceLike[]; hasItems: boolean };

const hasToolList = (json: unknown) => Array.isArray(json) || (isObj(json) && (Array.isArray(json.tools) || (isObj(json.result) && Array.isArray(json.result.tools))));

/** Prompts, resources and resource templates of a server-surface object (or a JSON-RPC result holding one). */
function surfaceOf(json: unknown): Surface {
  const root = isObj(json) && isObj(json.result) && !Array.isArray(json.tools) ? json.result : json;
  const list = (key: string): Array<Record<string, unknown>> => {
    const value = isObj(root) ? root[key] : undefined;
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new Error(`"${key}" is not an array`);
    value.forEach((v, i) => {
      if (!isObj(v)) throw new Error(`${key}[${i}] is not an object`);
    });
    return value as Array<Record<string, unknown>>;
  };
  const prompts = list("prompts");
  prompts.forEach((p, i) => {
    if (typeof p.name !== "string") throw new Error(`prompts[${i}] has no string "name"`);
  });
  const resources = list("resources");
  const resourceTemplates = list("resourceTemplates");
  return { prompts: prompts as PromptLike[], resources, resourceTemplates, hasItems: prompts.length + resources.length + resourceTemplates.length > 0 || (isObj(root) && ("prompts" in root || "resources" in root || "resourceTemplates" in root)) };
}

/** "otherServers" of the input: [{name | serverName, tools | a tools/list result}]. */
function otherServersOf(json: unknown): OtherServer[] {
  if (!isObj(json) || json.otherServers === undefined) return [];
  if (!Array.isArray(json.otherServers)) throw new Error('"otherServers" is not an array');
  return json.otherServers.map((entry, i) => {
    const where = `otherServers[${i}]`;
    if (!isObj(entry)) throw new Error(`${where} is not an object`);
    const name = typeof entry.name === "string" ? entry.name : entry.serverName;
    if (typeof name !== "string" || !name.trim()) throw new Error(`${where} has no string "name" (or "serverName")`);
    if (!("tools" in entry)) throw new Error(`${where} has no "tools"`);
    try {
      return { serverName: name, tools: extractToolList(entry.tools).tools };
    } catch (error) {
      throw new Error(`${where}.tools: ${(error as Error).message}`, { cause: error });
    }
  });
}

/** --other [NAME=]FILE: another server's tool list, in any shape the main input accepts. */
async function readOtherServer(spec: string): Promise<OtherServer> {
  const eq = /^([^=/\\]+)=(.+)$/.exec(spec);
  const file = eq ? eq[2]! : spec;
  const serverName = eq ? eq[1]! : basename(file).replace(/\.[^.]*$/, "") || file;
  let json: unknown;
  try {
    json = JSON.parse((await readInput(file)).replace(/^\uFEFF/, ""));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `not valid JSON (${error.message})` : (error as Error).message;
    throw new Error(`--other ${file}: ${reason}`, { cause: error });
  }
  try {
    return { serverName, tools: extractToolList(json).tools };
  } catch (error) {
    throw new Error(`--other ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Server instructions, when the file carries them (a snapshot's facts, or an {instructions, tools} object). */
function instructionsOf(json: unknown): string | null {
  if (!isObj(json)) return null;
  if (isObj(json.facts) && typeof json.facts.instructions === "string") return json.facts.instructions;
  if (typeof json.instructions === "string") return json.instructions;
  if (isObj(json.result) && typeof json.result.instructions === "string") return json.result.instructions;
  return null;
}

/** The line of the file where each tool's name is written, so SARIF results land on the tool. */
function locator(text: string, tools: readonly ToolLike[]): (f: AuditFinding) => number | undefined {
  const lines = new Map<string, number>();
  for (const tool of tools) {
    const name = String(tool.name);
    if (lines.has(name)) continue;
    const at = new RegExp(`"name"\\s*:\\s*${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).exec(text);
    if (at) lines.set(name, text.slice(0, at.index).split("\n").length);
  }
  return (f) => (f.toolName === null ? undefined : lines.get(f.toolName));
}
