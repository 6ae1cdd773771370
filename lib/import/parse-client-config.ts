import { checked } from "./check-entry";
import { parseJsonc } from "./jsonc";
import { detectFormat, EXPECTED_KEYS, isObj, vscodeSettingsServers } from "./detect-format";
import { parseToolwatchExport } from "./toolwatch-format";
import { FORMAT_LABELS, ImportFormatError, type ConfigFormat, type ImportEntry, type ServerBody } from "./types";

// One reader for the MCP client configs people already have. Values are copied as written:
// `${env:NAME}`, `${input:id}`, `${NAME}` and `${workspaceFolder}` stay literal text (a reference
// for whoever edits the server later), never resolved from this machine's environment.

type Obj = Record<string, unknown>;

export type ParsedConfig = { format: ConfigFormat; entries: ImportEntry[] };

/** Detects the format of a config file's text (or takes the one given) and reads every server in it. */
export function parseClientConfig(text: string, format?: ConfigFormat): ParsedConfig {
  return readClientConfig(parseJsonc(text), format);
}

/** The same for a document already parsed (the API's body may carry the object itself). */
export function readClientConfig(doc: unknown, format?: ConfigFormat): ParsedConfig {
  if (!isObj(doc)) throw new ImportFormatError(`the file is JSON but not an object: ${EXPECTED_KEYS}`);
  const chosen = format ?? detectFormat(doc);
  const need = (value: unknown, where: string): Obj => {
    if (isObj(value)) return value;
    throw new ImportFormatError(`a ${FORMAT_LABELS[chosen]} file needs an object at ${where}; this one has none`);
  };
  switch (chosen) {
    case "toolwatch":
      return { format: chosen, entries: parseToolwatchExport(doc) };
    case "zed":
      return { format: chosen, entries: readMap(need(doc.context_servers, "context_servers"), zedEntry) };
    case "vscode":
      return { format: chosen, entries: readMap(need(doc.servers, "servers"), mcpServersEntry) };
    case "vscode-settings":
      return { format: chosen, entries: readMap(need(vscodeSettingsServers(doc), "mcp.servers"), mcpServersEntry) };
    default:
      return { format: chosen, entries: readMap(need(doc.mcpServers, "mcpServers"), mcpServersEntry) };
  }
}

type Reader = (name: string, raw: Obj) => { body: Omit<ServerBody, "name">; notes: string[] } | string;

function readMap(map: Obj, read: Reader): ImportEntry[] {
  return Object.entries(map).map(([name, raw]): ImportEntry => {
    if (!isObj(raw)) return { name, refused: "the entry is not an object" };
    const result = read(name, raw);
    if (typeof result === "string") return { name, refused: result };
    return checked({ name, ...result.body }, result.notes);
  });
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined);
const stringMap = (v: unknown): Record<string, string> | undefined => {
  if (!isObj(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "string") out[k] = x;
    else if (typeof x === "number" || typeof x === "boolean") out[k] = String(x);
    else return undefined;
  }
  return out;
};

const URL_TYPES: Record<string, ServerBody["transport"]> = { http: "streamable-http", "streamable-http": "streamable-http", streamableHttp: "streamable-http", sse: "sse" };

/** An entry of `mcpServers` (Claude Desktop/Code, Cursor, Windsurf) or of VS Code's `servers`. */
function mcpServersEntry(_name: string, e: Obj): ReturnType<Reader> {
  const notes: string[] = [];
  const type = e.type;
  if (type !== undefined && typeof type !== "string") return "type must be a string";
  const url = e.url ?? e.serverUrl;
  const enabled = e.disabled === true ? { enabled: false } : {};
  if (e.envFile !== undefined) notes.push("envFile is not read: set those variables on the server after import");
  if (type === "stdio" || (type === undefined && e.command !== undefined)) {
    if (typeof e.command !== "string") return "a stdio entry needs command (a string)";
    if (url !== undefined) return "the entry has both command and url";
    const args = e.args === undefined ? [] : strings(e.args);
    if (!args) return "args must be a list of strings";
    const env = e.env === undefined ? {} : stringMap(e.env);
    if (!env) return "env must map names to strings";
    if (e.cwd !== undefined && typeof e.cwd !== "string") return "cwd must be a string";
    return { body: { transport: "stdio", command: e.command, args, env, ...(typeof e.cwd === "string" ? { cwd: e.cwd } : {}), ...enabled }, notes };
  }
  if (type !== undefined && !URL_TYPES[type]) return `type "${type}" is not one of stdio, http, sse`;
  if (typeof url !== "string") return type ? `a ${type} entry needs url` : "the entry has neither command nor url";
  const headers = e.headers === undefined ? {} : stringMap(e.headers);
  if (!headers) return "headers must map names to strings";
  // Without a type, a URL ending in /sse is an SSE server; anything else Streamable HTTP (the worker falls back to SSE when that fails).
  const transport = type ? URL_TYPES[type]! : /\/sse\/?$/.test(safePath(url)) ? "sse" : "streamable-http";
  return { body: { transport, url, headers, ...enabled }, notes };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** Zed `context_servers`: `command: {path, args, env}`, or `command` + `args` + `env`, or `url` + `headers`. */
function zedEntry(name: string, e: Obj): ReturnType<Reader> {
  const disabled = e.enabled === false ? { disabled: true } : {};
  if (isObj(e.command)) {
    const c = e.command;
    if (typeof c.path !== "string") return "command.path must be a string";
    return mcpServersEntry(name, { command: c.path, args: c.args, env: c.env, ...disabled });
  }
  if (typeof e.command === "string" || typeof e.url === "string") return mcpServersEntry(name, { command: e.command, args: e.args, env: e.env, url: e.url, headers: e.headers, ...disabled });
  return "no command or url: the server is provided by a Zed extension, which Toolwatch cannot run";
}
