// Shared by the pure-CPU benches (diff, audit): one timer, one way to print a sample set.

export function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${s[Math.floor(s.length / 2)]!.toFixed(1)} ms  max ${s.at(-1)!.toFixed(1)} ms  (n=${s.length})`;
}

export function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** The q-quantile (0…1) of a sample set, nearest rank. */
export function percentile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
