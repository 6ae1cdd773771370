/* global process */
// A tiny stdio MCP server for the fleet bench (plain JavaScript: no tsx, no SDK, ~40 MB per
// process). 2025-era only: answers `initialize`, `ping` and `tools/list` (one page); everything
// else is "method not found". Usage: node stdio-fixture.js <tools.json> <counts.json>
// Each process rewrites <counts.json>.<pid> after each request (a probe may spawn a sibling):
import fs from "node:fs";
import readline from "node:readline";

const [toolsFile, countsFile] = process.argv.slice(2);
const tools = JSON.parse(fs.readFileSync(toolsFile, "utf8"));
const counts = { initialize: 0, "server/discover": 0, "tools/list": 0, other: 0 };
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const SUPPORTED = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  const key = message.method in counts ? message.method : "other";
  counts[key]++;
  fs.writeFileSync(`${countsFile}.${process.pid}`, JSON.stringify(counts));
  if (message.id === undefined || message.method === undefined) return; // notifications, responses
  if (message.method === "initialize") {
    const asked = message.params?.protocolVersion;
    send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: SUPPORTED.includes(asked) ? asked : SUPPORTED[0], capabilities: { tools: {} }, serverInfo: { name: "fleet-stdio-fixture", version: "1.0.0" } } });
  } else if (message.method === "tools/list") send({ jsonrpc: "2.0", id: message.id, result: { tools } });
  else if (message.method === "ping") send({ jsonrpc: "2.0", id: message.id, result: {} });
  else send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
});
process.stdin.on("end", () => process.exit(0));
