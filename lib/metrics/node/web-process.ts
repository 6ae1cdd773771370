import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { createRouteMatcher } from "@/lib/metrics/route-template";
import { observeHttpRequest } from "@/lib/metrics/web-metrics";
import { listAppRoutes } from "./app-routes";
import { isMetricsRequest, serveMetrics } from "./metrics-endpoint";

/**
 * The web process's request hook: answers /metrics itself (before Next, so neither the page
 * proxy nor the sign-in redirect applies to it) and times every other request. Returns true when
 * it answered the request.
 */
export function createWebMetricsHook(appDir: string, token: string | undefined): (req: IncomingMessage, res: ServerResponse) => boolean {
  const routeOf = createRouteMatcher(listAppRoutes(appDir));
  return (req, res) => {
    if (isMetricsRequest(req.url)) {
      void serveMetrics(req, res, token);
      return true;
    }
    const started = performance.now();
    // The route is worked out once the response is done, off the request's own path.
    res.once("close", () => observeHttpRequest(req.method, routeOf(req.url ?? "/"), res.statusCode, (performance.now() - started) / 1000));
    return false;
  };
}
