import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { directRoute, serveDirect } from "./app/_lib/direct-routes";
import { closeDb, getDb, poolOf } from "./lib/db";
import { loadEnv, requireDatabaseUrl } from "./lib/env";
import { createWebMetricsHook } from "./lib/metrics/node/web-process";
import { registerWebMetrics } from "./lib/metrics/web-metrics";
import { PROJECT_ROOT } from "./lib/project-root";
import { attachSocketServer } from "./lib/realtime/node/socket-server";
import { onFleetEvent, setServerPageFeed } from "./lib/servers/server-page-cache";

// The web process: Next's request handler and socket.io on one port. socket.io authenticates
// each socket and relays the worker's NOTIFYs to the rooms of the teams concerned (see
// lib/realtime/node/socket-server.ts); it never talks MCP.
const env = loadEnv();
const url = requireDatabaseUrl(env);
const dev = process.env.NODE_ENV !== "production";
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 23)} ${line}`);

const app = next({ dev, hostname: env.HOST, port: env.PORT, dir: PROJECT_ROOT });
const handle = app.getRequestHandler();
await app.prepare();

// Hot fleet reads skip Next's pipeline (app/_lib/direct-routes.ts); the URL's origin only
// fills Request.url, which the handlers read for the path and query.
const origin = `http://${env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST}:${env.PORT}`;
// GET /metrics (docs/metrics.md) is answered here, before Next; every other request is timed.
const metrics = createWebMetricsHook(path.join(PROJECT_ROOT, "app"), env.TOOLWATCH_METRICS_TOKEN);
const httpServer = createServer((req, res) => {
  if (metrics(req, res)) return;
  // The client address as this server saw it, so the sign-in brake (keyed by x-forwarded-for)
  // cannot be dodged by sending a made-up header. Behind a reverse proxy, TOOLWATCH_TRUST_PROXY=1
  // keeps the proxy's header instead.
  if (!env.TOOLWATCH_TRUST_PROXY) {
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
    delete req.headers["x-forwarded-host"];
    delete req.headers["x-forwarded-proto"]; // nor claim https (HSTS, secure cookies) from outside
  }
  const direct = env.TOOLWATCH_DIRECT_ROUTES ? directRoute(req) : undefined;
  if (direct) void serveDirect(direct, req, res, origin);
  else void handle(req, res);
});
// The fleet list may answer repeated queries from memory only while this feed tells it of changes.
const sockets = attachSocketServer(httpServer, { listenUrl: url, log, onEvent: onFleetEvent, onFeedStatus: setServerPageFeed });
registerWebMetrics({ socketClients: () => sockets.io.engine.clientsCount, pools: { main: () => poolOf(getDb()) } });

httpServer.listen(env.PORT, env.HOST, () => {
  const shown = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  log(`Toolwatch is ready at http://${shown}:${env.PORT}`);
});
httpServer.on("error", (error) => {
  console.error(`web server failed: ${error.message}`);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping web server`);
  setTimeout(() => process.exit(1), 8_000).unref();
  await sockets.close();
  await app.close();
  await closeDb();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));
