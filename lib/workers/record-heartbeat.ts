import os from "node:os";
import type { Db } from "@/lib/db";

// internal-writer: the worker's heartbeat
export async function recordHeartbeat(db: Db, workerId: string, startedAt: Date, sessions: number): Promise<void> {
  const now = new Date();
  await db.workerHeartbeat.upsert({
    where: { workerId },
    create: { workerId, hostname: os.hostname(), pid: process.pid, startedAt, beatAt: now, sessions },
    update: { beatAt: now, sessions, pid: process.pid, startedAt },
  });
}

// internal-writer: the worker's heartbeat
export async function removeHeartbeat(db: Db, workerId: string): Promise<void> {
  await db.workerHeartbeat.deleteMany({ where: { workerId } });
}

/** Forgets workers that have not beaten for an hour (crashed or killed without a clean stop). */
// internal-writer: the worker's heartbeat
export async function pruneStaleHeartbeats(db: Db, olderThanMs = 3_600_000): Promise<number> {
  const { count } = await db.workerHeartbeat.deleteMany({ where: { beatAt: { lt: new Date(Date.now() - olderThanMs) } } });
  return count;
}
