import type { Tx } from "@/lib/db";
import { REALTIME_CHANNEL, type RealtimeEvent } from "./events";

/**
 * NOTIFY inside the caller's transaction: Postgres delivers it only on commit, so the browser is
 * never told about a row it cannot read yet, and a rolled-back change tells nobody.
 */
// internal-writer: pg_notify in the caller's transaction, no data written
export async function notifyInTx(tx: Tx, event: RealtimeEvent): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify(event)})`;
}
