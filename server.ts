import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { directRoute, serveDirect } from "./app/_lib/direct-routes";
import { startApiKeyFeed } from "./lib/auth/api-key-feed";
import { closeDb, getDb, poolOf } from "./lib/db";
import { loadEnv, requireDatabaseUrl } from "./lib/env";
import { createWebMetricsHook } from "./lib/metrics/node/web-process";
import { registerWebMetrics } from "./lib/metrics/web-metrics";
import { configureLogger } from "./lib/logger";
import { PROJECT_ROOT } from "./lib/project-root";
import { attachSocketServer } from "./lib/realtime/node/socket-server";
import { loggablePath, requestIdFrom } from "./lib/request-log";
import { onFleetEvent, setServerPageFeed } from "./lib/servers/server-page-cache";

// The web process: Next's request handler and socket.io on one port. socket.io authenticates
// each socket and relays the worker's NOTIFYs to the rooms of the teams concerned (see
// lib/realtime/node/socket-server.ts); it never talks MCP.
const env = loadEnv();
const url = requireDatabaseUrl(env);
const dev = process.env.NODE_ENV !== "production";
const log = configureLogger("web");

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
  // One id per request, on the response and on the log line of a failure (and in a 500's body,
  // app/_lib/http.ts), so a user's report can be matched to the log.
  const requestId = requestIdFrom(req.headers["x-request-id"]);
  req.headers["x-request-id"] = requestId;
  res.setHeader("x-request-id", requestId);
  const started = performance.now();
  res.once("finish", () => {
    if (res.statusCode >= 500) {
      log.error({ requestId, method: req.method, path: loggablePath(req.url), status: res.statusCode, durationMs: Math.round(performance.now() - started) }, "request failed");
    }
    if (stopping) httpServer.closeIdleConnections(); // a kept-alive connection must not hold the shutdown up
  });
  const direct = env.TOOLWATCH_DIRECT_ROUTES ? directRoute(req) : undefined;
  if (direct) void serveDirect(direct, req, res, origin);
  else void handle(req, res);
});
// Node closes an idle kept-alive connection after 5 s, but clients reuse pooled sockets without
// reading the Keep-Alive hint (Playwright's request context, Node's own agent), and load balancers
// hold theirs for 60 s (AWS ALB, nginx): a request sent just as the server hangs up is reset
// (ECONNRESET, or a 502 from the balancer). Outlive them; headers must still arrive within 66 s.
httpServer.keepAliveTimeout = 65_000;
httpServer.headersTimeout = 66_000;
// The fleet list may answer repeated queries from memory only while this feed tells it of changes.
const sockets = attachSocketServer(httpServer, { listenUrl: url, log: (line) => log.warn(line), onEvent: onFleetEvent, onFeedStatus: setServerPageFeed });
// API keys verified once per process, forgotten on any change to their row (lib/auth/api-key-cache.ts).
const keyFeed = env.TOOLWATCH_API_KEY_CACHE ? startApiKeyFeed(url, (line) => log.warn(line)) : undefined;
registerWebMetrics({ socketClients: () => sockets.io.engine.clientsCount, pools: { main: () => poolOf(getDb()) } });

httpServer.listen(env.PORT, env.HOST, () => {
  const shown = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  const address = `http://${shown}:${env.PORT}`;
  log.info({ url: address }, `Toolwatch is ready at ${address}`);
});
httpServer.on("error", (error) => {
  log.fatal(`web server failed: ${error.message}`);
  process.exit(1);
});

// Graceful stop: no new connections, requests in flight finish (within TOOLWATCH_SHUTDOWN_GRACE_MS),
// socket.io clients are disconnected (they reconnect to another web process), exit 0. A second
// signal exits at once.
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    log.warn(`${signal} again: exiting now`);
    process.exit(1);
  }
  stopping = true;
  const graceMs = env.TOOLWATCH_SHUTDOWN_GRACE_MS;
  log.info(`${signal}: stopping web server; requests in flight get ${graceMs} ms`);
  setTimeout(() => process.exit(1), graceMs + 8_000).unref();
  const drained = new Promise<"drained">((resolve) => httpServer.close(() => resolve("drained")));
  httpServer.closeIdleConnections();
  await sockets.close();
  await keyFeed?.close();
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
  if ((await Promise.race([drained, patience])) === "timeout") {
    log.warn(`requests still running after the ${graceMs} ms grace period; closing their connections`);
    httpServer.closeAllConnections();
  }
  clearTimeout(timer);
  await app.close();
  await closeDb();
  log.info("web server stopped");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
