import { Counter, Gauge, Histogram } from "prom-client";
import { registerPoolGauges, type PoolSources } from "./pool-gauges";
import { boundedLabel, enableDefaultMetrics, lazyMetric } from "./registry";

// The worker's metrics (docs/metrics.md). Labels are kinds, statuses and codes only: never a
// server, tenant or alert id, so the number of series stays small whatever the fleet's size.

const listings = lazyMetric("toolwatch_listings_total", (name, registers) => new Counter({ name, help: "Tool listings completed and stored, by what started them", labelNames: ["trigger"], registers }));
const snapshots = lazyMetric("toolwatch_snapshots_recorded_total", (name, registers) => new Counter({ name, help: "Listings stored: changed = a new snapshot, unchanged = the latest one confirmed", labelNames: ["result"], registers }));
const changeLatency = lazyMetric(
  "toolwatch_list_changed_to_snapshot_seconds",
  (name, registers) => new Histogram({ name, help: "From a server's list_changed notification to the snapshot of the listing it caused being committed", buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers }),
);
const discoveryErrors = lazyMetric("toolwatch_discovery_errors_total", (name, registers) => new Counter({ name, help: "Discovery failures recorded as a server's error state, by error code", labelNames: ["code"], registers }));
const alertsOpened = lazyMetric("toolwatch_alerts_opened_total", (name, registers) => new Counter({ name, help: "Alerts opened, by kind and severity", labelNames: ["kind", "severity"], registers }));
const webhookDeliveries = lazyMetric("toolwatch_webhook_deliveries_total", (name, registers) => new Counter({ name, help: "Webhook delivery attempts, by outcome", labelNames: ["outcome"], registers }));

export function countListing(trigger: string, changed: boolean): void {
  listings().inc({ trigger });
  snapshots().inc({ result: changed ? "changed" : "unchanged" });
}

export function observeChangeToSnapshot(seconds: number): void {
  changeLatency().observe(seconds);
}

// Error codes are the worker's own closed set, except JSON-RPC codes, which a server chooses:
// the standard ones keep their number, any other becomes JSONRPC_OTHER; and a cap on top.
const STANDARD_JSONRPC = new Set(["JSONRPC_-32700", "JSONRPC_-32600", "JSONRPC_-32601", "JSONRPC_-32602", "JSONRPC_-32603"]);
const capCode = boundedLabel(100);
export function errorCodeLabel(code: string): string {
  if (code.startsWith("JSONRPC_") && !STANDARD_JSONRPC.has(code)) return "JSONRPC_OTHER";
  return /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? capCode(code) : "other";
}

export function countDiscoveryError(code: string): void {
  discoveryErrors().inc({ code: errorCodeLabel(code) });
}

export function countAlertOpened(kind: string, severity: string): void {
  alertsOpened().inc({ kind, severity });
}

export type WebhookAttemptOutcome = "delivered" | "retry" | "dead" | "skipped" | "error";
export function countWebhookAttempt(outcome: WebhookAttemptOutcome): void {
  webhookDeliveries().inc({ outcome });
}

export type WorkerMetricSources = {
  /** Running sessions by status, from the scheduler's memory. */
  sessions: () => Record<string, number>;
  /** Alert evaluations waiting to run. */
  evaluationQueue: () => number;
  /** Webhook jobs waiting in the queue (undefined while the queue is down). */
  webhookQueue: () => Promise<number | undefined>;
  pools: PoolSources;
};

/** Everything the worker's /metrics shows; the gauges read their sources at scrape time. */
export function registerWorkerMetrics(sources: WorkerMetricSources): void {
  enableDefaultMetrics();
  // Every series whose label values are known up front shows from the start, at 0.
  listings();
  for (const result of ["changed", "unchanged"]) snapshots().inc({ result }, 0);
  changeLatency();
  discoveryErrors();
  alertsOpened();
  for (const outcome of ["delivered", "retry", "dead", "skipped", "error"] satisfies WebhookAttemptOutcome[]) webhookDeliveries().inc({ outcome }, 0);
  lazyMetric("toolwatch_sessions", (name, registers) => {
    return new Gauge({
      name,
      help: "Discovery sessions this worker runs, by status",
      labelNames: ["status"],
      registers,
      collect() {
        this.reset();
        for (const [status, count] of Object.entries(sources.sessions())) this.set({ status }, count);
      },
    });
  })();
  lazyMetric("toolwatch_evaluation_queue_depth", (name, registers) => {
    return new Gauge({ name, help: "Alert evaluations waiting to run in this worker", registers, collect() { this.set(sources.evaluationQueue()); } });
  })();
  lazyMetric("toolwatch_webhook_queue_depth", (name, registers) => {
    return new Gauge({
      name,
      help: "Webhook deliveries queued and not yet being attempted (the shared queue, the same for every worker)",
      registers,
      async collect() {
        // NaN while the queue is down or cannot be read: unknown, which 0 would hide.
        const size = await sources.webhookQueue().catch(() => undefined);
        this.set(size ?? Number.NaN);
      },
    });
  })();
  registerPoolGauges(sources.pools);
}
