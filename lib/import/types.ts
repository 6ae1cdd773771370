// What an import turns a config file or a registry into: one entry per server, either a body for
// POST /api/v1/servers (lib/servers/server-input.ts) or a refusal saying why it cannot be one.

/** The body POST /api/v1/servers takes (field names of the REST API). */
export type ServerBody = {
  name: string;
  transport: "stdio" | "streamable-http" | "sse";
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  tags?: string[];
  enabled?: boolean;
  pollIntervalSeconds?: number;
  auditPolicy?: "trust_first" | "strict";
};

export type ImportEntry =
  | { name: string; body: ServerBody; notes: string[] }
  | { name: string; refused: string };

export const CONFIG_FORMATS = ["toolwatch", "claude-desktop", "claude-code", "cursor", "windsurf", "vscode", "vscode-settings", "zed"] as const;
export type ConfigFormat = (typeof CONFIG_FORMATS)[number];

export const FORMAT_LABELS: Record<ConfigFormat, string> = {
  toolwatch: "Toolwatch export",
  "claude-desktop": "Claude Desktop (mcpServers)",
  "claude-code": "Claude Code / .mcp.json (mcpServers with type)",
  cursor: "Cursor mcp.json (mcpServers with url)",
  windsurf: "Windsurf mcp_config.json (mcpServers with serverUrl)",
  vscode: "VS Code mcp.json (servers)",
  "vscode-settings": "VS Code settings.json (mcp.servers)",
  zed: "Zed settings.json (context_servers)",
};

/** Raised for a file that is not one of the formats; the message is for people. */
export class ImportFormatError extends Error {}

/** What an import does with one server (POST /api/v1/servers/import). */
export type ImportAction = "create" | "update" | "unchanged" | "refused";

export type ImportItem = {
  name: string;
  action: ImportAction;
  /** Why a refused server cannot be imported. */
  reason?: string;
  transport: "stdio" | "streamable_http" | "sse" | null;
  /** URL or command line, secret values cut out (lib/import/display-target.ts). */
  target: string | null;
  /** For an update: what differs. */
  changes?: string[];
  notes: string[];
  /** The server's id: an existing one's, or a created one's after the import. */
  id?: string;
};

export type ImportResult = { format: ConfigFormat; dryRun: boolean; items: ImportItem[]; summary: Record<ImportAction, number> };
