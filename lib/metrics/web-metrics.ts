import { Gauge, Histogram } from "prom-client";
import { registerPoolGauges, type PoolSources } from "./pool-gauges";
import { enableDefaultMetrics, lazyMetric } from "./registry";
import { methodLabel, statusClass } from "./route-template";

// The web process's metrics (docs/metrics.md). The route label is a template from the app
// directory (route-template.ts), never a raw path.

const httpDuration = lazyMetric(
  "toolwatch_http_request_duration_seconds",
  (name, registers) =>
    new Histogram({
      name,
      help: "HTTP requests answered by the web process, by method, route template and status class",
      labelNames: ["method", "route", "status_class"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
);

export function observeHttpRequest(method: string | undefined, route: string, status: number, seconds: number): void {
  httpDuration().observe({ method: methodLabel(method), route, status_class: statusClass(status) }, seconds);
}

export type WebMetricSources = {
  /** Browsers connected over socket.io right now. */
  socketClients: () => number;
  pools: PoolSources;
};

export function registerWebMetrics(sources: WebMetricSources): void {
  enableDefaultMetrics();
  httpDuration();
  lazyMetric("toolwatch_socketio_connected_clients", (name, registers) => {
    return new Gauge({ name, help: "Clients connected to this web process over socket.io", registers, collect() { this.set(sources.socketClients()); } });
  })();
  registerPoolGauges(sources.pools);
}
