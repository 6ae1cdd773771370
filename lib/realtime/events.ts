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
  // An alert was opened, updated (new candidate, severity), decided on or resolved; `opened` on the
  // first of these (the browser shows a toast).
  | { type: "alert:changed"; tenantId: string; serverId: string; alertId: string; opened?: true }
  // A user left or was removed: their sockets are dropped and rejoin only their current teams.
  | { type: "membership:changed"; tenantId: string; userId: string }
  // Share-link lifecycle: acted on by the web process for share sockets only, never relayed to
  // team rooms. A revoked link's sockets are dropped; a changed or deleted view is re-read.
  | { type: "share:revoked"; tenantId: string; linkId: string }
  | { type: "view:changed"; tenantId: string; viewId: string };

export type RealtimeEventType = RealtimeEvent["type"];

export const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;
export const userRoom = (userId: string) => `user:${userId}`;
/** One room per share link: its sockets hear about that link's view and nothing else. */
export const shareRoom = (linkId: string) => `share:${linkId}`;

/** The socket.io event name the browser listens to; payload is the RealtimeEvent. */
export const SOCKET_EVENT = "toolwatch";

/**
 * Sent once per connection, with no payload, after the server has put the socket in its rooms
 * (which takes a membership read after "connect"). Only from then on is every event heard, so a
 * page counts itself live, and refetches what it loaded before, on this message, not on "connect".
 */
export const READY_EVENT = "toolwatch:ready";

/**
 * What a share link's sockets (auth: { shareToken }) receive on SHARE_SOCKET_EVENT. No tenant id
 * and no other server's id: the page refetches GET /api/v1/share/{token}. `share:revoked` is
 * sent for revoked and expired links and deleted views alike, just before the server disconnects.
 */
export type ShareSocketEvent = { type: "share:changed"; serverId: string | null } | { type: "share:revoked" };
export const SHARE_SOCKET_EVENT = "share";

const SUBJECT_KEYS = ["serverId", "userId", "linkId", "viewId"] as const;

export function parseRealtimeEvent(payload: string): RealtimeEvent | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (typeof value.type !== "string" || typeof value.tenantId !== "string") return null;
    if (!SUBJECT_KEYS.some((key) => typeof value[key] === "string")) return null;
    return value as unknown as RealtimeEvent;
  } catch {
    return null;
  }
}
