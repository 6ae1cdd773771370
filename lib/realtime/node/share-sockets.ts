import type { DefaultEventsMap, Server, Socket } from "socket.io";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { findLiveShareLink, listLiveShareLinkIds, listSharedServerIds, type LiveShareLink } from "@/lib/views/share-subscription";
import { SHARE_SOCKET_EVENT, shareRoom, type RealtimeEvent, type ShareSocketEvent } from "@/lib/realtime/events";

// Sockets of public share pages (handshake `auth: { shareToken }`). Each is in its link's room
// only — never a tenant or user room — and hears:
// - `share:changed` with a serverId when something happened to a server its view shows, or
//   showed until that event (so a server leaving the view disappears from the page);
//   `share:changed` without one when the view itself was edited;
// - `share:revoked` just before the server disconnects it: the link was revoked (NOTIFY), its
//   view deleted (NOTIFY; the links go with it), or it expired (found by `revalidate`).
// No tenant id, no other server's id, no data: the page refetches GET /api/v1/share/{token}.
//
// Which servers a view shows is read from the database with the same filter as that endpoint,
// per tenant, and kept per link: re-read at once on events that can change it (status, server
// edits, view edits), otherwise at most SCOPE_TTL_MS old (a NOTIFY lost in a LISTEN reconnect).

export type ShareSocketData = { share?: LiveShareLink };

type ShareIo<D extends ShareSocketData> = Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, D>;
type ShareSocket<D extends ShareSocketData> = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, D>;

export type ShareRelay<D extends ShareSocketData> = {
  /** Puts a handshaken share socket in its link's room. */
  join(socket: ShareSocket<D>): Promise<void>;
  /** Called for every NOTIFY; share sockets hear only what their view shows. */
  relay(event: RealtimeEvent): void;
  /** Drops the sockets of links that stopped working (expired, or a missed NOTIFY). */
  revalidate(): Promise<void>;
};

const SCOPE_TTL_MS = 30_000;

/** Events after which a view may show other servers: a status, a server's tags/name/transport, a server added or removed. */
const MEMBERSHIP_EVENTS = new Set<RealtimeEvent["type"]>(["server:changed", "session:statusChanged"]);
/** Events that change what a shared page shows (a confirmed snapshot or a refresh request changes nothing there). */
const SERVER_EVENTS = new Set<RealtimeEvent["type"]>(["snapshot:recorded", "session:statusChanged", "server:changed", "alert:changed"]);

/** The handshake: the link a token opens, or the same refusal every other bad credential gets. */
export async function authenticateShareSocket(db: Db, token: unknown): Promise<LiveShareLink> {
  const link = await findLiveShareLink(db, token);
  if (!link) throw new AppError("UNAUTHENTICATED", "share link unknown, expired or revoked");
  return link;
}

export function createShareRelay<D extends ShareSocketData>(io: ShareIo<D>, db: Db, log: (line: string) => void): ShareRelay<D> {
  const scopes = new Map<string, { serverIds: Set<string>; readAt: number }>();
  // One event at a time, in NOTIFY order: a later event never overtakes an earlier one whose
  // scope is still being read, so each socket hears events in the order they happened.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (what: string, work: () => Promise<void>) => {
    queue = queue.then(work).catch((error: Error) => log(`share relay: ${what} failed: ${error.message}`));
  };

  /** Links with a socket on this process, optionally of one tenant. */
  const localLinks = (tenantId?: string): LiveShareLink[] => {
    const links = new Map<string, LiveShareLink>();
    for (const socket of io.of("/").sockets.values()) {
      const share = socket.data?.share;
      if (share && (!tenantId || share.tenantId === tenantId)) links.set(share.id, share);
    }
    return [...links.values()];
  };

  const emit = (linkId: string, event: ShareSocketEvent) => io.to(shareRoom(linkId)).emit(SHARE_SOCKET_EVENT, event);

  const drop = (linkId: string) => {
    scopes.delete(linkId);
    emit(linkId, { type: "share:revoked" });
    // After the message (engine.io drains its buffer before closing); a server-side disconnect,
    // so the client does not retry.
    io.in(shareRoom(linkId)).disconnectSockets(true);
  };

  /** Re-reads the scopes of `links` (one tenant); drops those that stopped working. */
  const readScopes = async (tenantId: string, links: LiveShareLink[]) => {
    if (links.length === 0) return;
    const fresh = await listSharedServerIds(db, tenantId, links.map((l) => l.id));
    const readAt = Date.now();
    for (const link of links) {
      const serverIds = fresh.get(link.id);
      if (serverIds) scopes.set(link.id, { serverIds, readAt });
      else drop(link.id);
    }
  };

  const relayServerEvent = async (event: Extract<RealtimeEvent, { serverId: string }>) => {
    const links = localLinks(event.tenantId);
    if (links.length === 0) return;
    const before = new Map(links.map((l) => [l.id, scopes.get(l.id)?.serverIds]));
    const stale = MEMBERSHIP_EVENTS.has(event.type) ? links : links.filter((l) => (scopes.get(l.id)?.readAt ?? 0) < Date.now() - SCOPE_TTL_MS);
    await readScopes(event.tenantId, stale);
    for (const link of links) {
      const after = scopes.get(link.id)?.serverIds;
      if (!after) continue; // dropped
      if (before.get(link.id)?.has(event.serverId) || after.has(event.serverId)) emit(link.id, { type: "share:changed", serverId: event.serverId });
    }
  };

  const relayViewChange = async (tenantId: string, viewId: string) => {
    const links = localLinks(tenantId).filter((l) => l.viewId === viewId);
    await readScopes(tenantId, links);
    for (const link of links) if (scopes.has(link.id)) emit(link.id, { type: "share:changed", serverId: null });
  };

  return {
    async join(socket) {
      const link = socket.data.share!;
      await socket.join(shareRoom(link.id));
      // The scope the page was loaded with, so the first status change that moves a server out
      // of the view is still told. A link revoked meanwhile is dropped here.
      enqueue("reading a share scope", () => readScopes(link.tenantId, [link]));
    },
    relay(event) {
      if (event.type === "share:revoked") enqueue("revoking", async () => drop(event.linkId));
      else if (event.type === "view:changed") enqueue("re-reading a view", () => relayViewChange(event.tenantId, event.viewId));
      else if (SERVER_EVENTS.has(event.type) && "serverId" in event) enqueue(event.type, () => relayServerEvent(event));
    },
    async revalidate() {
      const links = localLinks();
      const live = await listLiveShareLinkIds(db, links.map((l) => l.id));
      for (const link of links) if (!live.has(link.id)) enqueue("dropping an expired link", async () => drop(link.id));
      const local = new Set(links.map((l) => l.id));
      for (const linkId of scopes.keys()) if (!local.has(linkId)) scopes.delete(linkId);
    },
  };
}
