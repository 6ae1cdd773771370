// Placeholder until written: scale-out with 2 and 3 workers.
export async function measureScaleOut(n: number, workers: number, capMs: number): Promise<Record<string, unknown>> {
  return { scaleOut: `not measured (n=${n}, workers=${workers}, cap=${capMs})` };
}
