import { parseJsonc } from "./jsonc";
import { ImportFormatError, type ConfigFormat } from "./types";

// Which client a config file comes from, told by its top-level keys and its entries' fields.
// Isomorphic (no Node, no server code): the import page runs it in the browser as you paste, and
// lib/import/parse-client-config.ts runs it before reading the entries.

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

// Toolwatch's own export: { "toolwatch": "servers", "version": 1, … } (lib/import/toolwatch-format.ts).
export const EXPORT_KIND = "servers";
export const EXPORT_VERSION = 1;

export function isToolwatchExport(doc: Obj): boolean {
  return doc.toolwatch === EXPORT_KIND;
}

export const EXPECTED_KEYS = "expected a top-level mcpServers (Claude, Cursor, Windsurf), servers (VS Code mcp.json), mcp.servers (VS Code settings), context_servers (Zed) or a Toolwatch export";

export function detectFormat(doc: Obj): ConfigFormat {
  if (isToolwatchExport(doc)) return "toolwatch";
  if (isObj(doc.context_servers)) return "zed";
  if (isObj(doc.mcpServers)) return mcpServersFlavour(doc.mcpServers);
  if (isObj(doc.servers)) return "vscode";
  if (vscodeSettingsServers(doc)) return "vscode-settings";
  throw new ImportFormatError(`no MCP servers found: ${EXPECTED_KEYS}`);
}

/** VS Code settings hold servers at `mcp.servers`, nested or as one dotted key. */
export function vscodeSettingsServers(doc: Obj): Obj | undefined {
  if (isObj(doc.mcp) && isObj(doc.mcp.servers)) return doc.mcp.servers;
  return isObj(doc["mcp.servers"]) ? doc["mcp.servers"] : undefined;
}

/** Claude Desktop, Claude Code, Cursor and Windsurf all use `mcpServers`; their entries tell them apart. */
function mcpServersFlavour(servers: Obj): ConfigFormat {
  const entries = Object.values(servers).filter(isObj);
  if (entries.some((e) => "serverUrl" in e)) return "windsurf";
  if (entries.some((e) => "type" in e)) return "claude-code";
  if (entries.some((e) => "url" in e)) return "cursor";
  return "claude-desktop";
}

/** Before anything is sent: the text's format and how many servers it names, or why it cannot be read. */
export function describeConfigText(text: string): { format: ConfigFormat; servers: number } | { error: string } {
  try {
    const doc = parseJsonc(text);
    if (!isObj(doc)) return { error: `the text is JSON but not an object: ${EXPECTED_KEYS}` };
    const format = detectFormat(doc);
    const map = format === "toolwatch" ? doc.servers : format === "zed" ? doc.context_servers : format === "vscode" ? doc.servers : format === "vscode-settings" ? vscodeSettingsServers(doc) : doc.mcpServers;
    return { format, servers: Array.isArray(map) ? map.length : isObj(map) ? Object.keys(map).length : 0 };
  } catch (error) {
    if (error instanceof ImportFormatError) return { error: error.message };
    throw error;
  }
}
