import { collectDefaultMetrics, Registry, type Metric } from "prom-client";

// One registry per process, kept on globalThis: server.ts and the route code Next bundles load
// separate copies of lib/, and both must count into the registry that /metrics serves.
const holder = globalThis as unknown as { __toolwatchMetrics?: { registry: Registry; defaults: boolean } };

export function metricsRegistry(): Registry {
  holder.__toolwatchMetrics ??= { registry: new Registry(), defaults: false };
  return holder.__toolwatchMetrics.registry;
}

/** Node's process metrics (CPU, memory, event-loop lag, GC); once per process. */
export function enableDefaultMetrics(): void {
  const state = (holder.__toolwatchMetrics ??= { registry: new Registry(), defaults: false });
  if (state.defaults) return;
  state.defaults = true;
  collectDefaultMetrics({ register: state.registry });
}

/**
 * A metric created on first use and found by name afterwards, so a second copy of the module
 * defining it reuses the registered one instead of failing on a duplicate name.
 */
export function lazyMetric<M extends Metric>(name: string, create: (name: string, registers: Registry[]) => M): () => M {
  let metric: M | undefined;
  return () => {
    if (metric) return metric;
    const registry = metricsRegistry();
    metric = (registry.getSingleMetric(name) as M | undefined) ?? create(name, [registry]);
    return metric;
  };
}

/** Caps the distinct values a label can take: the first `max` seen pass, later new ones become "other". */
export function boundedLabel(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return "other";
    seen.add(value);
    return value;
  };
}
