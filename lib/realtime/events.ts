// Isomorphic: imported by the browser, server.ts and the worker. Events carry ids only; the
// browser refetches what they name (Postgres is the source of truth, sockets are hints).

/** Postgres NOTIFY channel the worker writes and every web process LISTENs on. */
export const REALTIME_CHANNEL = "toolwatch_events";

export type RealtimeEvent =
  | { type: "snapshot:recorded"; tenantId: string; serverId: string; snapshotId: string }
  | { type: "snapshot:confirmed"; tenantId: string; serverId: string; snapshotId: string }
  | { type: "session:statusChanged"; tenantId: string; serverId: string; status: string }
  | { type: "server:changed"; tenantId: string; serverId: string }
  | { type: "server:refreshRequested"; tenantId: string; serverId: string }
  // An alert was opened, updated (new candidate, severity), decided on or resolved.
  | { type: "alert:changed"; tenantId: string; serverId: string; alertId: string }
  // A user left or was removed: their sockets are dropped and rejoin only their current teams.
  | { type: "membership:changed"; tenantId: string; userId: string };

export type RealtimeEventType = RealtimeEvent["type"];

export const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;
export const userRoom = (userId: string) => `user:${userId}`;

/** The socket.io event name the browser listens to; payload is the RealtimeEvent. */
export const SOCKET_EVENT = "toolwatch";

export function parseRealtimeEvent(payload: string): RealtimeEvent | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (typeof value.type !== "string" || typeof value.tenantId !== "string") return null;
    if (typeof value.serverId !== "string" && typeof value.userId !== "string") return null;
    return value as unknown as RealtimeEvent;
  } catch {
    return null;
  }
}
