// Child process of bench/fleet-api.ts: the real route handlers of GET /api/v1/servers and
// GET /api/v1/alerts behind a bare node:http adapter (Next's router is not in the path), so the
// load generator and the server under test do not share an event loop. Prints "ready <port>".
import http from "node:http";
import { listenForEvents } from "@/lib/realtime/listen";
import { onFleetEvent, setServerPageFeed } from "@/lib/servers/server-page-cache";

// As server.ts does: the change feed that lets the fleet list answer repeated queries from memory
// (BENCH_CACHE=0 leaves it off, so every request reads the database).
if (process.env.BENCH_CACHE !== "0") listenForEvents(process.env.DATABASE_URL!, onFleetEvent, () => undefined, setServerPageFeed);

const routes = {
  "/api/v1/servers": (await import("@/app/api/v1/servers/route")).GET,
  "/api/v1/alerts": (await import("@/app/api/v1/alerts/route")).GET,
} as Record<string, (request: Request) => Promise<Response>>;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://bench.local");
  const handler = routes[url.pathname];
  if (!handler || req.method !== "GET") {
    res.writeHead(404).end();
    return;
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  handler(new Request(url, { headers }))
    .then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json", "content-length": body.length });
      res.end(body);
    })
    .catch((error: unknown) => {
      console.error(error);
      res.writeHead(500).end();
    });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
