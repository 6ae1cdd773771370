import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { metricsRegistry } from "@/lib/metrics/registry";

// GET /metrics in Prometheus's text format, on the web port (server.ts) and on the worker's own
// port (TOOLWATCH_WORKER_METRICS_PORT). With TOOLWATCH_METRICS_TOKEN set, a scrape must send
// "Authorization: Bearer <token>"; unset, the endpoint is open (firewall it: docs/metrics.md).

export const METRICS_PATH = "/metrics";

export function isMetricsRequest(url: string | undefined): boolean {
  return url === METRICS_PATH || (url?.startsWith(`${METRICS_PATH}?`) ?? false);
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether a scrape may read the metrics: no token configured, or the right bearer token (compared in constant time). */
export function isAuthorizedScrape(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
  if (given === undefined) return false;
  // Equal-length digests: the comparison takes the same time whatever the given token's length.
  return timingSafeEqual(digest(given), digest(token));
}

export async function serveMetrics(req: IncomingMessage, res: ServerResponse, token: string | undefined): Promise<void> {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method not allowed: scrape /metrics with GET\n");
    return;
  }
  if (!isAuthorizedScrape(req.headers.authorization, token)) {
    res.writeHead(401, { "WWW-Authenticate": 'Bearer realm="toolwatch-metrics"', "Content-Type": "text/plain; charset=utf-8" }).end("Unauthorized: send Authorization: Bearer <TOOLWATCH_METRICS_TOKEN>\n");
    return;
  }
  const registry = metricsRegistry();
  try {
    const body = await registry.metrics();
    res.writeHead(200, { "Content-Type": registry.contentType }).end(req.method === "HEAD" ? undefined : body);
  } catch {
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Could not collect the metrics\n");
  }
}

export type MetricsServer = { port: number; close(): Promise<void> };

/** A server that answers /metrics and nothing else (404): the worker's only HTTP. */
export function startMetricsServer(options: { port: number; host: string; token: string | undefined }): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (isMetricsRequest(req.url)) return void serveMetrics(req, res, options.token);
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: this port serves /metrics only\n");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
