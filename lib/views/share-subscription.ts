import type { Db } from "@/lib/db";
import { listServers } from "@/lib/servers/list-servers";
import { matchesServer } from "./match-servers";
import { shareContext } from "./resolve-share";
import { storedViewFilters } from "./view-input";
import { hashShareToken, SHARE_TOKEN, shareLinkStatus } from "./share-links";

// What a live share page may hear about. The socket relay (lib/realtime/node/share-sockets.ts)
// asks here which link a token opens, whether links still work, and which servers each link's
// view shows right now — with the same filter as GET /api/v1/share/{token}, so a page is told
// about exactly the servers it shows.

export type LiveShareLink = { id: string; tenantId: string; viewId: string };

/**
 * The link a token opens, if it still works. Counts no access: the page load that opens the
 * socket has already counted one, and reconnects must not inflate the count.
 */
export async function findLiveShareLink(db: Db, token: unknown, now = new Date()): Promise<LiveShareLink | null> {
  if (typeof token !== "string" || !SHARE_TOKEN.test(token)) return null;
  const link = await db.shareLink.findUnique({
    where: { tokenHash: hashShareToken(token) },
    select: { id: true, tenantId: true, viewId: true, revokedAt: true, expiresAt: true },
  });
  if (!link || shareLinkStatus(link, now) !== "active") return null;
  return { id: link.id, tenantId: link.tenantId, viewId: link.viewId };
}

/** Which of `linkIds` still work: not revoked, not expired, their view not deleted (cascade). */
export async function listLiveShareLinkIds(db: Db, linkIds: string[], now = new Date()): Promise<Set<string>> {
  if (linkIds.length === 0) return new Set();
  const rows = await db.shareLink.findMany({
    where: { id: { in: linkIds }, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

/**
 * For each of one tenant's links that still works: the ids of the servers its view shows now.
 * Links that stopped working are absent from the result. One fleet read however many links.
 */
export async function listSharedServerIds(db: Db, tenantId: string, linkIds: string[], now = new Date()): Promise<Map<string, Set<string>>> {
  const scopes = new Map<string, Set<string>>();
  if (linkIds.length === 0) return scopes;
  const links = await db.shareLink.findMany({
    where: { id: { in: linkIds }, tenantId },
    select: { id: true, revokedAt: true, expiresAt: true, view: { select: { filters: true } } },
  });
  const live = links.filter((link) => shareLinkStatus(link, now) === "active");
  if (live.length === 0) return scopes;
  const servers = await listServers(shareContext(db, { id: "relay", tenantId, viewId: null }));
  for (const link of live) {
    const filters = storedViewFilters(link.view.filters);
    scopes.set(link.id, new Set(servers.filter((s) => matchesServer(s, filters)).map((s) => s.id)));
  }
  return scopes;
}
