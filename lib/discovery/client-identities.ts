// The clientInfo (name, version) that common agents send in `initialize` (and, in the 2026-07-28
// era, in every request's `_meta["io.modelcontextprotocol/clientInfo"]`). A server that answers
// differently depending on these is cloaking: it shows a scanner one list and an agent another
// (docs/identity-probes.md). Isomorphic: no I/O, shared by the worker, the API and the UI.
//
// Sources (looked up, not guessed, except where marked "reported"):
// - claude-desktop: Claude Desktop's MCP logs quoted in modelcontextprotocol/typescript-sdk#179
//   ("clientInfo":{"name":"claude-ai","version":"0.1.0"}, 2025-03) and 0x4m4/hexstrike-ai#11
//   (same values with protocolVersion 2025-06-18, 2025-08).
// - claude-code: initialize records of Claude Code in public repositories' probe logs
//   ({"name":"claude-code","version":"2.1.261"} and "2.1.293"); the version follows the CLI release.
// - cursor: reported — Cursor is closed source; "cursor-vscode" / "1.0.0" is what servers log and
//   what public test fixtures replay as Cursor's initialize.
// - vscode: microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts sends
//   clientInfo {name: productService.nameLong, version: productService.version}: "Visual Studio
//   Code" and the editor's version (GitHub Copilot's agent mode connects through it).
// - windsurf: reported — closed source; "windsurf-client" is the name servers' client maps expect.
// - zed: zed-industries/zed crates/context_server/src/context_server.rs, Implementation {name:
//   "Zed", version: env!("CARGO_PKG_VERSION")}.
// - cline: cline/cline src/services/mcp/McpHub.ts, new Client({name: "Cline", version: <extension
//   version>}).
// - gemini-cli: google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts, new Client({name:
//   "gemini-cli-mcp-client", version: "0.0.1"}).
// - codex: openai/codex codex-rs (MCP client), Implementation {name: "codex-mcp-client", version:
//   env!("CARGO_PKG_VERSION"), title: "Codex"}.

export type ClientIdentity = {
  /** Stable key used in settings, the API and stored probe rows. */
  key: string;
  /** What people call the client. */
  label: string;
  clientInfo: { name: string; version: string };
  /** Where the values come from (shown in the docs and the settings UI). */
  source: string;
  /** true: confirmed in the client's own source or logs; false: what servers report seeing. */
  verified: boolean;
};

export const CLIENT_IDENTITIES = [
  { key: "claude-desktop", label: "Claude Desktop", clientInfo: { name: "claude-ai", version: "0.1.0" }, source: "Claude Desktop MCP logs (modelcontextprotocol/typescript-sdk#179)", verified: true },
  { key: "claude-code", label: "Claude Code", clientInfo: { name: "claude-code", version: "2.1.293" }, source: "Claude Code initialize records in public probe logs", verified: true },
  { key: "cursor", label: "Cursor", clientInfo: { name: "cursor-vscode", version: "1.0.0" }, source: "reported by servers (Cursor is closed source)", verified: false },
  { key: "vscode", label: "VS Code / GitHub Copilot", clientInfo: { name: "Visual Studio Code", version: "1.140.0" }, source: "microsoft/vscode mcpServerRequestHandler.ts (productService.nameLong)", verified: true },
  { key: "windsurf", label: "Windsurf", clientInfo: { name: "windsurf-client", version: "1.0.0" }, source: "reported by servers (Windsurf is closed source)", verified: false },
  { key: "zed", label: "Zed", clientInfo: { name: "Zed", version: "0.200.0" }, source: "zed-industries/zed crates/context_server/src/context_server.rs", verified: true },
  { key: "cline", label: "Cline", clientInfo: { name: "Cline", version: "3.20.0" }, source: "cline/cline src/services/mcp/McpHub.ts", verified: true },
  { key: "gemini-cli", label: "Gemini CLI", clientInfo: { name: "gemini-cli-mcp-client", version: "0.0.1" }, source: "google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts", verified: true },
  { key: "codex", label: "OpenAI Codex", clientInfo: { name: "codex-mcp-client", version: "0.63.0" }, source: "openai/codex codex-rs MCP client", verified: true },
] as const satisfies readonly ClientIdentity[];

export type ClientIdentityKey = (typeof CLIENT_IDENTITIES)[number]["key"];
export const CLIENT_IDENTITY_KEYS = CLIENT_IDENTITIES.map((i) => i.key) as ClientIdentityKey[];

const BY_KEY = new Map<string, ClientIdentity>(CLIENT_IDENTITIES.map((i) => [i.key, i]));

export const clientIdentityOf = (key: string): ClientIdentity | undefined => BY_KEY.get(key);
export const isClientIdentityKey = (key: string): key is ClientIdentityKey => BY_KEY.has(key);

/** The identities to probe: the chosen keys in catalog order (unknown keys dropped), or all when none are chosen. */
export function resolveIdentities(keys: readonly string[] | null | undefined): ClientIdentity[] {
  if (!keys || keys.length === 0) return [...CLIENT_IDENTITIES];
  const wanted = new Set(keys);
  return CLIENT_IDENTITIES.filter((i) => wanted.has(i.key));
}
