import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

// The floor the product is compared with: the MCP client alone, one server after another —
// connect, every tools/list page, close. No database, no diff, no audit.
export async function bareClientLoop(urls: string[]): Promise<{ ms: number; perSnapshotMs: number; cpuMsPerSnapshot: number; tools: number }> {
  let tools = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (const url of urls) {
    const client = new Client({ name: "fleet-bench-bare", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools += page.tools.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    await client.close();
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  return { ms, perSnapshotMs: ms / urls.length, cpuMsPerSnapshot: (cpu.user + cpu.system) / 1000 / urls.length, tools };
}
