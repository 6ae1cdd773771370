import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { diffToolLists, renderDiffText, visibleText, type Level, type ToolLike } from "@/lib/diff";
import type { SurfaceListing } from "@/lib/surface/surface-keys";
import { compareSurfaces, extractSurface, renderSurfaceText } from "./surface-diff";

const HELP = `usage: toolwatch diff <old> <new> [--json] [--fail-on ERR|WARN]

Compares two tool lists and classifies every change (ERR breaks callers, WARN may, INFO does
not). Each side is a JSON file holding a tools/list result ({"tools": [...]}), a JSON-RPC
response wrapping one ({"result": {"tools": [...]}}), a bare array of tools, or the output of
"toolwatch snapshot --json". A file may also carry what the server offers besides tools:
{"tools": [...], "prompts": [...], "resources": [...], "resourceTemplates": [...], "instructions": "..."};
when both files do, those are compared too (a new required prompt argument is ERR, a resource's
URI or MIME type change WARN, changed instructions WARN with a word diff).

  --json           print the diff as JSON (stable shape, "version": 1)
  --fail-on LEVEL  exit 1 if any finding is at LEVEL or above (ERR; or WARN: WARN or ERR)

Exit 0 otherwise; 2 for bad usage or a file that cannot be read as a tool list.`;

/** Where output goes; process.stdout/stderr in the CLI, collectors in tests. */
export type DiffIo = { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };

class InputError extends Error {}

export async function runDiffCommand(argv: string[], io: DiffIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const usage = (message: string) => (io.stderr.write(`toolwatch diff: ${message}\n\n${HELP}\n`), 2);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { json: { type: "boolean", default: false }, "fail-on": { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return io.stdout.write(`${HELP}\n`), 0;
  if (positionals.length !== 2) return usage(`expected two files (old and new), got ${positionals.length}`);
  const failOn = values["fail-on"]?.toUpperCase();
  if (failOn !== undefined && failOn !== "ERR" && failOn !== "WARN") return usage("--fail-on takes ERR or WARN");

  const sides: Array<{ label: string; path: string; list?: LoadedList }> = [
    { label: "old", path: positionals[0]! },
    { label: "new", path: positionals[1]! },
  ];
  for (const side of sides) {
    try {
      side.list = await loadToolList(side.path);
    } catch (error) {
      const reason = error instanceof InputError ? error.message : (error as Error).message;
      io.stderr.write(`toolwatch diff: ${side.label} file ${visibleText(side.path)}: ${visibleText(reason)}\n`);
      return 2;
    }
    for (const warning of side.list.warnings) io.stderr.write(`toolwatch diff: warning: ${side.label} file ${visibleText(side.path)}: ${warning}\n`);
  }
  const [old, neu] = [sides[0]!.list!, sides[1]!.list!];
  const diff = diffToolLists(old.tools, neu.tools);
  const surface = old.surface && neu.surface ? compareSurfaces(old.surface, neu.surface) : null;
  if (Boolean(old.surface) !== Boolean(neu.surface)) io.stderr.write("toolwatch diff: warning: only one file lists prompts/resources/instructions; they were not compared\n");

  if (values.json) io.stdout.write(`${JSON.stringify(surface ? { ...diff, surface } : diff, null, 2)}\n`);
  else {
    const header = sides.map((s) => `${s.label}: ${visibleText(s.path)} (${s.list!.tools.length} tools, ${s.list!.format})`);
    io.stdout.write(`${header.join("\n")}\n\n${renderDiffText(diff)}\n${surface ? `\n${renderSurfaceText(surface)}\n` : ""}`);
  }
  const levels = { ...diff.summary.levels };
  for (const f of surface?.changes.flatMap((c) => c.findings) ?? []) levels[f.level]++;
  if (failOn && meets(levels, failOn)) {
    if (!values.json) io.stderr.write(`toolwatch diff: failing: findings at ${failOn} or above (--fail-on ${failOn})\n`);
    return 1;
  }
  return 0;
}

function meets(levels: Record<Level, number>, threshold: "ERR" | "WARN"): boolean {
  return levels.ERR > 0 || (threshold === "WARN" && levels.WARN > 0);
}

export type LoadedList = { tools: ToolLike[]; format: string; warnings: string[]; surface?: SurfaceListing | null };

async function loadToolList(path: string): Promise<LoadedList> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : `cannot be read (${code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new InputError(`not valid JSON (${(error as Error).message})`);
  }
  return extractToolList(json);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Recognises the accepted shapes; exported for tests and for any other caller holding parsed JSON. */
export function extractToolList(json: unknown): LoadedList {
  const warnings: string[] = [];
  let tools: unknown;
  let format: string;
  if (Array.isArray(json)) {
    tools = json;
    format = "array of tools";
  } else if (isObj(json) && typeof json.contentHash === "string" && Array.isArray(json.tools)) {
    // `toolwatch snapshot --json`: listing.tools is the list as served; top-level tools carry an added `hash`.
    const listing = isObj(json.listing) && Array.isArray(json.listing.tools) ? json.listing.tools : undefined;
    tools = listing ?? json.tools.map((t) => (isObj(t) ? withoutHash(t) : t));
    format = "toolwatch snapshot";
  } else if (isObj(json) && isObj(json.error) && !("result" in json)) {
    throw new InputError(`holds a JSON-RPC error response, not a tool list (${JSON.stringify(json.error.message ?? json.error.code)})`);
  } else if (isObj(json) && isObj(json.result) && Array.isArray(json.result.tools)) {
    tools = json.result.tools;
    format = "JSON-RPC tools/list response";
    if (hasCursor(json.result)) warnings.push(pageWarning);
  } else if (isObj(json) && Array.isArray(json.tools)) {
    tools = json.tools;
    format = "tools/list result";
    if (hasCursor(json)) warnings.push(pageWarning);
  } else {
    throw new InputError('expected a tools/list result ({"tools": [...]}), a JSON-RPC response, an array of tools, or "toolwatch snapshot --json" output');
  }
  const list = tools as unknown[];
  list.forEach((t, i) => {
    if (!isObj(t) || typeof t.name !== "string") throw new InputError(`tools[${i}] is not a tool (an object with a string "name")`);
  });
  let surface: SurfaceListing | null;
  try {
    surface = extractSurface(json);
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  return { tools: list as ToolLike[], format: surface ? `${format} with prompts/resources` : format, warnings, surface };
}

const pageWarning = "nextCursor is set: this is one page of a paginated list, so tools on other pages will show as removed or added";
const hasCursor = (o: Record<string, unknown>) => typeof o.nextCursor === "string" && o.nextCursor !== "";

function withoutHash(tool: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...tool };
  delete rest.hash;
  return rest;
}
