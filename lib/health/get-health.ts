import type { Db } from "@/lib/db";

export type Health = {
  ok: boolean;
  database: { ok: boolean; latencyMs: number | null; error?: string };
  workers: { ok: boolean; live: number; workers: Array<{ workerId: string; hostname: string; pid: number; beatAt: string; sessions: number; ageMs: number }> };
};

/** A worker is live when its heartbeat is younger than three beat intervals. */
export async function getHealth(db: Db, heartbeatMs: number): Promise<Health> {
  const started = performance.now();
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (error) {
    return {
      ok: false,
      database: { ok: false, latencyMs: null, error: error instanceof Error ? error.message.split("\n")[0] : String(error) },
      workers: { ok: false, live: 0, workers: [] },
    };
  }
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  const now = Date.now();
  const rows = await db.workerHeartbeat.findMany({ orderBy: { beatAt: "desc" } });
  const workers = rows.map((w) => ({
    workerId: w.workerId,
    hostname: w.hostname,
    pid: w.pid,
    beatAt: w.beatAt.toISOString(),
    sessions: w.sessions,
    ageMs: now - w.beatAt.getTime(),
  }));
  const live = workers.filter((w) => w.ageMs < heartbeatMs * 3).length;
  return { ok: live > 0, database: { ok: true, latencyMs }, workers: { ok: live > 0, live, workers } };
}
