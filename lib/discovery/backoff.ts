/** Exponential backoff with full jitter: spreads reconnect storms across a fleet of servers. */
export function backoffDelayMs(attempt: number, opts: { baseMs?: number; maxMs: number; random?: () => number }): number {
  const base = opts.baseMs ?? 1000;
  const ceiling = Math.min(opts.maxMs, base * 2 ** Math.max(0, attempt - 1));
  const random = opts.random ?? Math.random;
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** ±fraction jitter around an interval, so polls of many servers do not align. */
export function jitter(intervalMs: number, fraction = 0.1, random: () => number = Math.random): number {
  return Math.round(intervalMs * (1 - fraction + random() * 2 * fraction));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
