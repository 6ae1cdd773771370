/**
 * One process serving many cheap Streamable HTTP MCP endpoints: `/s/<i>/mcp` for i in
 * [FLEET_FROM, FLEET_FROM + FLEET_COUNT). Two kinds:
 * - plain (most): 2025-era stateless, plain JSON responses (`enableJsonResponse`), no GET stream,
 *   no `listChanged` — the fleet of the issue's reproduction. One short-lived Server per request.
 * - push (every FLEET_PUSH_EVERY-th i): 2026-07-28 (`createMcpHandler`, JSON responses) advertising
 *   `tools.listChanged`, so a client keeps a `subscriptions/listen` stream open and hears
 *   `notifications/tools/list_changed` when the control URL changes the list.
 * Control (same port): GET /control/counts, GET /control/trail/<i>, GET /control/listed-before/<ms>
 * (tools/list requests each endpoint received until then), POST /control/reset, POST /control/change/<i>.
 * Prints `READY <port>` on stdout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, Server, WebStandardStreamableHTTPServerTransport, type ListToolsResult, type McpHttpHandler } from "@modelcontextprotocol/server";
import { changedToolList, fixtureToolList, type FixtureTool } from "./fleet-tools";

const FROM = Number(process.env.FLEET_FROM ?? 0);
const COUNT = Number(process.env.FLEET_COUNT ?? 100);
const PUSH_EVERY = Number(process.env.FLEET_PUSH_EVERY ?? 0);
const INFO = { name: "fleet-fixture", version: "1.0.0" };
// Counter columns per endpoint.
// "most open listens": the most `subscriptions/listen` streams open at once (2 = two sessions).
export const COLUMNS = ["initialize", "server/discover", "tools/list", "subscriptions/listen", "other", "GET", "most open listens"] as const;
const counts = new Uint32Array(COUNT * COLUMNS.length);
const openListens = new Uint32Array(COUNT);
const changes = new Uint32Array(COUNT);
// The first requests each endpoint received (time, method, the client's name where the message
// carries it): says why a server was listed more than once in a sweep.
const TRAIL_MAX = 16;
const trails = new Map<number, string[]>();
const listedAt = new Map<number, number[]>();
function remember(i: number, message: { method?: string; params?: { clientInfo?: { name?: string }; _meta?: Record<string, unknown> } }): void {
  if (message.method === "tools/list") {
    let times = listedAt.get(i);
    if (!times) listedAt.set(i, (times = []));
    times.push(Date.now());
  }
  let trail = trails.get(i);
  if (!trail) trails.set(i, (trail = []));
  if (trail.length >= TRAIL_MAX || !message.method || message.method.startsWith("notifications/")) return;
  const meta = Object.entries(message.params?._meta ?? {}).find(([key]) => key.endsWith("clientInfo"))?.[1] as { name?: string } | undefined;
  const client = message.params?.clientInfo?.name ?? meta?.name;
  trail.push(`${Date.now()} ${message.method}${client ? ` ${client}` : ""}`);
}
const lists = new Map<number, FixtureTool[]>();
const pushHandlers = new Map<number, McpHttpHandler>();

export const isPush = (i: number, pushEvery = PUSH_EVERY) => pushEvery > 0 && i % pushEvery === 0;
const toolsOf = (i: number): FixtureTool[] => {
  let list = lists.get(i);
  if (!list) lists.set(i, (list = changes[i - FROM] ? changedToolList(i, changes[i - FROM]!) : fixtureToolList(i)));
  return list;
};

function mcpServer(i: number, listChanged: boolean): Server {
  const server = new Server(INFO, { capabilities: { tools: listChanged ? { listChanged: true } : {} } });
  server.setRequestHandler("tools/list", async () => ({ tools: toolsOf(i) }) as unknown as ListToolsResult);
  return server;
}

function pushHandler(i: number): McpHttpHandler {
  let handler = pushHandlers.get(i);
  if (!handler) pushHandlers.set(i, (handler = createMcpHandler(() => mcpServer(i, true), { responseMode: "json", onerror: () => undefined })));
  return handler;
}

async function plainRequest(i: number, request: Request, parsedBody: unknown): Promise<Response> {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
  const server = mcpServer(i, false);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    void server.close().catch(() => undefined);
  }
}

function count(i: number, method: string | undefined): void {
  const known = method === undefined ? -1 : COLUMNS.indexOf(method as (typeof COLUMNS)[number]);
  const column = method === undefined ? 5 : known >= 0 && known < 4 ? known : 4;
  counts[(i - FROM) * COLUMNS.length + column]!++;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function control(path: string, res: ServerResponse): void {
  const json = (value: unknown): void => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
  if (path === "/control/counts") return json({ from: FROM, columns: COLUMNS, counts: Array.from({ length: COUNT }, (_, k) => Array.from(counts.subarray(k * COLUMNS.length, (k + 1) * COLUMNS.length))) });
  const trail = /^\/control\/trail\/(\d+)$/.exec(path);
  if (trail) return json(trails.get(Number(trail[1])) ?? []);
  const before = /^\/control\/listed-before\/(\d+)$/.exec(path);
  if (before) return json(Array.from({ length: COUNT }, (_, k) => (listedAt.get(FROM + k) ?? []).filter((at) => at <= Number(before[1])).length));
  if (path === "/control/reset") {
    counts.fill(0);
    trails.clear();
    listedAt.clear();
    json({ ok: true });
    return;
  }
  const change = /^\/control\/change\/(\d+)$/.exec(path);
  if (change) {
    const i = Number(change[1]);
    if (i < FROM || i >= FROM + COUNT) return void res.writeHead(404).end();
    changes[i - FROM]!++;
    lists.delete(i);
    const t0 = Date.now();
    const push = pushHandlers.get(i);
    push?.notify.toolsChanged();
    json({ t0, tools: toolsOf(i).length, notified: Boolean(push) });
    return;
  }
  res.writeHead(404).end();
}

const http = createServer((req, res) => {
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  void (async () => {
    try {
      const path = (req.url ?? "/").split("?")[0]!;
      if (path.startsWith("/control/")) return control(path, res);
      const match = /^\/s\/(\d+)\/mcp$/.exec(path);
      const i = match ? Number(match[1]) : -1;
      if (i < FROM || i >= FROM + COUNT) return void res.writeHead(404).end();
      const body = req.method === "POST" ? await readBody(req) : undefined;
      let parsed: unknown;
      let listen = false;
      if (body?.length) {
        parsed = JSON.parse(body.toString("utf8"));
        for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
          const method = (message as { method?: string }).method;
          count(i, method ?? "response");
          remember(i, message as Parameters<typeof remember>[1]);
          listen ||= method === "subscriptions/listen";
        }
      } else count(i, undefined);
      const k = i - FROM;
      if (listen) {
        openListens[k]!++;
        const most = k * COLUMNS.length + 6;
        counts[most] = Math.max(counts[most]!, openListens[k]!);
        res.on("close", () => void openListens[k]!--);
      }
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
      const request = new Request(`http://127.0.0.1${path}`, { method: req.method, headers, body: body?.length ? new Uint8Array(body) : undefined, signal: abort.signal });
      const response = isPush(i) ? await pushHandler(i).fetch(request, { parsedBody: parsed }) : await plainRequest(i, request, parsed);
      res.statusCode = response.status;
      response.headers.forEach((value, key) => res.setHeader(key, value));
      if (!response.body) return void res.end();
      res.flushHeaders();
      const reader = response.body.getReader();
      res.on("close", () => void reader.cancel().catch(() => undefined));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    }
  })();
});
http.keepAliveTimeout = 60_000;
http.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`READY ${(http.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
});
// A driver that died without stopping us (crash, kill -9) must not leave the fleet running.
setInterval(() => process.ppid === 1 && process.exit(0), 5_000).unref();
