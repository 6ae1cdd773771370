import { Gauge } from "prom-client";
import { lazyMetric } from "./registry";

/** A pool's own counters (pg.Pool has these). */
export type PoolCounts = { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
/** Pools by name ("main", "lease"): a handful per process, never one per tenant or server. */
export type PoolSources = Record<string, () => PoolCounts | undefined>;

let sources: PoolSources = {};

const gauge = (name: string, help: string, read: (counts: PoolCounts) => number) =>
  lazyMetric(name, (metricName, registers) => {
    return new Gauge({
      name: metricName,
      help,
      labelNames: ["pool"],
      registers,
      collect() {
        this.reset();
        for (const [pool, counts] of Object.entries(sources)) {
          const current = counts();
          if (current) this.set({ pool }, read(current));
        }
      },
    });
  });

const gauges = [
  gauge("toolwatch_db_pool_connections", "Open connections in the Postgres pool (busy and idle)", (c) => c.totalCount),
  gauge("toolwatch_db_pool_idle_connections", "Idle connections in the Postgres pool", (c) => c.idleCount),
  gauge("toolwatch_db_pool_waiting_requests", "Queries waiting for a free connection of the Postgres pool", (c) => c.waitingCount),
];

/** Reports these pools at each scrape (read then, nothing is counted on the query path). */
export function registerPoolGauges(pools: PoolSources): void {
  sources = pools;
  gauges.forEach((get) => get());
}
