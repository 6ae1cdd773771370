// Isomorphic: imported by the browser, server.ts and the worker. Events carry ids only; the
// browser refetches what they name (Postgres is the source of truth, sockets are hints).

/** Postgres NOTIFY channel the worker writes and every web process LISTENs on. */
export const REALTIME_CHANNEL = "toolwatch_events";

export type RealtimeEvent =
  | { type: "snapshot:recorded"; tenantId: string; serverId: string; snapshotId: string }
  | { type: "snapshot:confirmed"; tenantId: string; serverId: string; snapshotId: string }
  | { type: "session:statusChanged"; tenantId: string; serverId: string; status: string }
  | { type: "server:changed"; tenantId: string; serverId: string };

export type RealtimeEventType = RealtimeEvent["type"];

export const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;

/** The socket.io event name the browser listens to; payload is the RealtimeEvent. */
export const SOCKET_EVENT = "toolwatch";

export function parseRealtimeEvent(payload: string): RealtimeEvent | null {
  try {
    const value = JSON.parse(payload) as Partial<RealtimeEvent>;
    if (typeof value.type !== "string" || typeof value.tenantId !== "string" || typeof value.serverId !== "string") {
      return null;
    }
    return value as RealtimeEvent;
  } catch {
    return null;
  }
}
