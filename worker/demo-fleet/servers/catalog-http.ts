/**
 * Demo server "Acme Product Catalog": Streamable HTTP, 24 tools served in pages of 10.
 *
 * Run: PORT=0 node --import tsx worker/demo-fleet/servers/catalog-http.ts
 * Prints exactly `READY http://127.0.0.1:<port>/mcp` on stdout once listening.
 *
 * Why the low-level `Server` instead of `McpServer`: McpServer's built-in
 * `tools/list` handler always returns every tool in one page, and a monitoring
 * product needs a paginated server in its demo so the page walk is visible.
 * `createMcpHandler` accepts a factory returning a low-level `Server`, and both
 * eras go through the same `setRequestHandler('tools/list', …)`:
 *  - 2026-07-28 clients (`server/discover` + per-request `_meta`) are served by the
 *    modern leg; `ttlMs`/`cacheScope` come from `cacheHints`.
 *  - 2025-era clients (`initialize`) are served statelessly by the SDK's legacy
 *    fallback (no GET stream, so no list_changed for them — the list never changes
 *    anyway).
 */
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from "@modelcontextprotocol/server";
import { CATALOG_TOOLS } from "./catalog-tools";
import { announceReady, listenHttp, portFromEnv } from "./http-host";
import { paginate } from "./paging";

const PAGE_SIZE = 10;
/** Bump when CATALOG_TOOLS changes so cursors from an older process are rejected. */
const LIST_REVISION = "2026-09-catalog-v1";

const log = (...args: unknown[]) => console.error("[catalog-http]", ...args);

/** Canned answers so a user clicking "call" in a client sees something plausible. */
function demoResult(name: string, args: Record<string, unknown>): CallToolResult {
  const payload = {
    demo: true,
    tool: name,
    arguments: args,
    note: "Acme Product Catalog is a Toolwatch demo server; no real catalog was read or changed.",
  };
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], structuredContent: payload };
}

function createCatalogServer(): Server {
  const server = new Server(
    { name: "acme-catalog", title: "Acme Product Catalog", version: "3.4.1" },
    {
      // listChanged is advertised so clients open a listen stream / register a
      // handler: that is the path Toolwatch demonstrates even for stable servers.
      capabilities: { tools: { listChanged: true } },
      instructions: "Product catalog of the Acme outdoor store: search, pricing, inventory, reviews and bulk imports.",
      // The tool list is identical for every caller, so shared caches may keep it.
      cacheHints: { "tools/list": { ttlMs: 300_000, cacheScope: "public" }, "server/discover": { ttlMs: 300_000, cacheScope: "public" } },
    },
  );
  server.setRequestHandler("tools/list", (request) => {
    const page = paginate(CATALOG_TOOLS, {
      cursor: request.params?.cursor,
      pageSize: PAGE_SIZE,
      scope: "catalog.tools",
      revision: LIST_REVISION,
    });
    return page.nextCursor === undefined ? { tools: page.items } : { tools: page.items, nextCursor: page.nextCursor };
  });
  server.setRequestHandler("tools/call", (request) => {
    const tool = CATALOG_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return demoResult(tool.name, request.params.arguments ?? {});
  });
  return server;
}

async function main(): Promise<void> {
  const handler = createMcpHandler(() => createCatalogServer(), { onerror: (e) => log("handler error:", e.message) });
  const host = await listenHttp(portFromEnv(), (req) => handler.fetch(req), (e) => log("request failed:", e));
  announceReady(host.url);
  log(`serving ${CATALOG_TOOLS.length} tools in pages of ${PAGE_SIZE} at ${host.url}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    void Promise.allSettled([handler.close(), host.close()]).then(() => process.exit(0));
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  log("fatal:", error);
  process.exit(1);
});
