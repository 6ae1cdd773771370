import pg from "pg";
import { io } from "socket.io-client";
import { READY_EVENT, REALTIME_CHANNEL, SOCKET_EVENT, type RealtimeEvent } from "@/lib/realtime/events";
import { percentile } from "./product-api";
import type { Running } from "./sweep";

// list_changed → snapshot committed → browser event, for changes on push-channel servers.
// Legs, all on this machine's clock: t0 (the fixture sends notifications/tools/list_changed),
// the snapshot's takenAt (database), the NOTIFY reaching a LISTEN connection of ours (≈ commit),
// the socket.io event reaching a client connected with the session cookie, as the browser is.
// How long one change may take before it counts as missed (changes are made one at a time).
const WAIT_MS = 45_000;

export async function measureChangeLatency(run: Running, changes: number, capMs: number): Promise<Record<string, unknown>> {
  const { product, fleet, teamA, ids } = run;
  // Only servers that already have a snapshot (on a sweep that did not finish, the ones it reached).
  const pushServers = ids.map((id, i) => ({ id, i })).filter(({ id, i }) => fleet.isPush(i) && run.snapshotted.has(id));
  if (!pushServers.length) return { servers: "no push server has a snapshot yet" };
  const listener = new pg.Client({ connectionString: product.databaseUrl });
  await listener.connect();
  const db = new pg.Client({ connectionString: product.databaseUrl });
  await db.connect();
  const notified = new Map<string, number>(); // snapshot id → when the NOTIFY arrived
  const notifiedServer = new Map<string, number>(); // server id → when its last snapshot NOTIFY arrived
  listener.on("notification", (msg) => {
    const event = JSON.parse(msg.payload ?? "{}") as Partial<RealtimeEvent> & { snapshotId?: string };
    if (event.type === "snapshot:recorded" && event.snapshotId) notified.set(event.snapshotId, Date.now());
    if (event.type === "snapshot:recorded" && event.serverId) notifiedServer.set(event.serverId, Date.now());
  });
  await listener.query(`LISTEN ${REALTIME_CHANNEL}`);
  const socket = io(product.baseUrl, { transports: ["websocket"], forceNew: true, extraHeaders: { cookie: teamA.cookie, origin: product.baseUrl } });
  const waiting = new Map<string, (event: { snapshotId: string; at: number }) => void>();
  const opened = Date.now();
  const disconnects: string[] = []; // the browser's socket would see the same
  socket.on("disconnect", (reason) => void disconnects.push(`${reason} after ${((Date.now() - opened) / 1000).toFixed(1)} s`));
  socket.on(SOCKET_EVENT, (event: RealtimeEvent) => {
    if (event.type === "snapshot:recorded") waiting.get(event.serverId)?.({ snapshotId: event.snapshotId, at: Date.now() });
  });
  // Rooms are joined after "connect"; READY_EVENT says they are.
  await new Promise<void>((resolve, reject) => {
    socket.once(READY_EVENT, () => resolve());
    socket.once("connect_error", reject);
  });

  const legs = { toTakenAt: [] as number[], toCommit: [] as number[], toSocket: [] as number[] };
  let missed = 0;
  const snapshotWithoutEvent: string[] = []; // ms from t0 to a snapshot no socket event announced
  const deadline = Date.now() + capMs;
  for (let k = 0; k < changes && Date.now() < deadline; k++) {
    const { id, i } = pushServers[k % pushServers.length]!;
    const heard = new Promise<{ snapshotId: string; at: number } | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), WAIT_MS);
      waiting.set(id, (e) => (clearTimeout(timer), resolve(e)));
    });
    const { t0 } = await fleet.change(i);
    const event = await heard;
    waiting.delete(id);
    if (!event) {
      // No socket event within WAIT_MS: was there a snapshot at all (event lost) or none (change late)?
      const { rows } = await db.query<{ t: number }>(
        "SELECT (extract(epoch FROM min(taken_at)) * 1000)::float8 AS t FROM snapshot WHERE server_id = $1 AND taken_at >= to_timestamp($2 / 1000.0)",
        [id, t0],
      );
      const notice = (notifiedServer.get(id) ?? 0) >= t0 ? "NOTIFY seen" : "no NOTIFY";
      if (rows[0]?.t) snapshotWithoutEvent.push(`${Math.round(Number(rows[0].t) - t0)} (${notice})`);
      else missed++;
      continue;
    }
    const { rows } = await db.query<{ t: number }>("SELECT (extract(epoch FROM taken_at) * 1000)::float8 AS t FROM snapshot WHERE id = $1", [event.snapshotId]);
    legs.toSocket.push(event.at - t0);
    if (rows[0]) legs.toTakenAt.push(Number(rows[0].t) - t0);
    const commit = notified.get(event.snapshotId);
    if (commit) legs.toCommit.push(commit - t0);
    await new Promise((r) => setTimeout(r, 200));
  }
  socket.close();
  await listener.end();
  await db.end();
  const p = (v: number[]) => (v.length ? `${Math.round(percentile(v, 50))} / ${Math.round(percentile(v, 95))} / ${Math.round(percentile(v, 99))}` : "—");
  return {
    pushServersUsed: pushServers.length,
    changes: legs.toSocket.length,
    [`no snapshot within ${WAIT_MS / 1000} s`]: missed,
    socketDisconnects: disconnects.join("; ") || "none",
    [`snapshot but no socket event within ${WAIT_MS / 1000} s (ms to takenAt)`]: snapshotWithoutEvent.join(", ") || "none",
    "list_changed→takenAt p50/p95/p99 ms": p(legs.toTakenAt),
    "list_changed→commit (NOTIFY) p50/p95/p99 ms": p(legs.toCommit),
    "list_changed→socket.io p50/p95/p99 ms": p(legs.toSocket),
  };
}
