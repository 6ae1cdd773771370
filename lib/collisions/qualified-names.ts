// Isomorphic: how agent hosts name an MCP tool once several servers are connected, so a collision
// page can show the string a person will meet in a permission rule, a hook or a transcript.
// Each host's rule is written down in docs/search-and-collisions.md with where it comes from. The
// host's server name is the key of its own config file, which is not necessarily the name the
// server has in Toolwatch: these are the names a host would use if both agree.

export type QualifiedName = { host: QualifyingHost; name: string };
export type QualifyingHost = "claude-code" | "vscode";

export const HOST_LABELS: Record<QualifyingHost, string> = {
  "claude-code": "Claude Code",
  vscode: "VS Code (Copilot agent)",
};

/** Claude Code: `mcp__<server>__<tool>`; characters of the server name outside A–Z a–z 0–9 _ - become `_`. */
export function claudeCodeToolName(serverName: string, toolName: string): string {
  return `mcp__${serverName.replace(/[^A-Za-z0-9_-]/g, "_")}__${toolName}`;
}

// VS Code's McpPrefixGenerator: "mcp_" + the lower-cased server label with runs of other characters
// as "_", cut so the whole prefix stays within 18 characters, then "_". A second server whose cut
// label is the same gets "2", "3"… in the order VS Code starts them (not modelled here).
const VSCODE_PREFIX = "mcp_";
const VSCODE_MAX_PREFIX = 18;

/** VS Code: `mcp_<label, lower-cased, at most 13 characters>_<tool>`. */
export function vscodeToolName(serverName: string, toolName: string): string {
  const label = serverName.toLowerCase().replace(/[^a-z0-9_.-]+/g, "_").slice(0, VSCODE_MAX_PREFIX - VSCODE_PREFIX.length - 1);
  return `${VSCODE_PREFIX}${label}_${toolName}`;
}

export function qualifiedNames(serverName: string, toolName: string): QualifiedName[] {
  return [
    { host: "claude-code", name: claudeCodeToolName(serverName, toolName) },
    { host: "vscode", name: vscodeToolName(serverName, toolName) },
  ];
}
