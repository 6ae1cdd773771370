import { requirePermission } from "@/lib/auth/permissions";
import type { Db } from "@/lib/db";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { listServers } from "@/lib/servers/list-servers";
import { loadSnapshotTools } from "@/lib/snapshots/load-snapshot-tools";
import type { SharedTool, SharedViewDto } from "./view-dto";
import { resolveRange, ViewFilters, storedViewFilters } from "./view-input";
import { hashShareToken, SHARE_TOKEN, shareLinkStatus } from "./share-links";
import { matchesServer, sortServers } from "./match-servers";

// The public side of a share link: no sign-in, so everything here is an allow-list. Only the
// view's servers, their current tools and their alerts leave, and only the fields named below:
// never connection targets, env or header names, errors, or anything of another server.

// Kept importable from here for code written before the move to the isomorphic module.

const ALERT_LIMIT = 200;
const gone = () => new AppError("NOT_FOUND", "This share link does not exist, has expired or was revoked");

export type ResolveShareOptions = {
  now?: Date;
  /**
   * false for the page's own refetches (after a live event, on focus): they move lastAccessAt
   * but not accessCount, so the count reads as "times the link was opened", not "events seen".
   */
  countAccess?: boolean;
};

/** The shared view's data for a token; unknown, expired and revoked tokens are the same 404. Records the access. */
// internal-writer: a share link's access counter; the token is the only credential
export async function resolveShare(db: Db, token: string, { now = new Date(), countAccess = true }: ResolveShareOptions = {}): Promise<SharedViewDto> {
  if (!SHARE_TOKEN.test(token)) throw gone();
  const link = await db.shareLink.findUnique({ where: { tokenHash: hashShareToken(token) }, include: { view: true } });
  if (!link || shareLinkStatus(link, now) !== "active") throw gone();
  // Conditional bump: a revoke that lands between the read and here still wins.
  const { count } = await db.shareLink.updateMany({
    where: { id: link.id, revokedAt: null },
    data: { lastAccessAt: now, ...(countAccess ? { accessCount: { increment: 1 } } : {}) },
  });
  if (count === 0) throw gone();

  const filters = storedViewFilters(link.view.filters);
  const ctx = shareContext(db, link);
  const servers = sortServers((await listServers(ctx)).filter((s) => matchesServer(s, filters)), filters.sort);
  const toolsByServer = await currentTools(ctx, servers.map((s) => s.id));
  const alerts = await sharedAlerts(ctx, servers.map((s) => s.id), filters, now);
  return {
    view: { name: link.view.name, filters },
    servers: servers.map((s) => ({
      id: s.id,
      name: s.name,
      status: s.status,
      transport: s.transport,
      tags: s.tags,
      protocolVersion: s.protocolVersion,
      toolCount: s.toolCount,
      lastChangeAt: s.lastChangeAt,
      tools: toolsByServer.get(s.id) ?? [],
    })),
    alerts,
    generatedAt: now.toISOString(),
  };
}

/**
 * The context a share link reads in: its own principal (kind "share"), which may read its team and
 * nothing else (SHARE_PERMISSIONS), never the all-powerful system actor. Names the link, never a person.
 */
export const shareContext = (db: Db, link: { id: string; tenantId: string; viewId: string | null }): ServiceContext => ({
  tenantId: link.tenantId,
  db,
  actor: { kind: "share", id: link.id, label: `share link ${link.id}`, tenantId: link.tenantId, viewId: link.viewId },
});

/** Each server's latest snapshot's tools, projected to the public fields. */
async function currentTools(ctx: ServiceContext, serverIds: string[]): Promise<Map<string, SharedTool[]>> {
  requirePermission(ctx, "team:read");
  if (serverIds.length === 0) return new Map();
  const latest = await ctx.db.snapshot.findMany({
    where: { tenantId: ctx.tenantId, serverId: { in: serverIds } },
    orderBy: [{ serverId: "asc" }, { takenAt: "desc" }],
    distinct: ["serverId"],
    select: { serverId: true, toolVersionIds: true },
  });
  const entries = await Promise.all(
    latest.map(async (s) => [s.serverId, (await loadSnapshotTools(ctx, s.toolVersionIds)).map((t) => toSharedTool(t.definition))] as const),
  );
  return new Map(entries);
}

function toSharedTool(def: Record<string, unknown>): SharedTool {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const annotations = def.annotations && typeof def.annotations === "object" ? (def.annotations as Record<string, unknown>) : null;
  return {
    name: String(def.name ?? ""),
    title: text(def.title) ?? text(annotations?.title),
    description: text(def.description),
    inputSchema: def.inputSchema ?? null,
    outputSchema: def.outputSchema ?? null,
    annotations,
  };
}

async function sharedAlerts(ctx: ServiceContext, serverIds: string[], filters: ViewFilters, now: Date): Promise<SharedViewDto["alerts"]> {
  requirePermission(ctx, "team:read");
  if (serverIds.length === 0) return [];
  const { from, to } = resolveRange(filters.timeRange, now);
  const where: Prisma.AlertWhereInput = {
    tenantId: ctx.tenantId,
    serverId: { in: serverIds },
    ...(filters.alerts?.kinds?.length ? { kind: { in: filters.alerts.kinds } } : {}),
    ...(filters.alerts?.severities?.length ? { severity: { in: filters.alerts.severities } } : {}),
    ...(from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) } } : {}),
  };
  const rows = await ctx.db.alert.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: ALERT_LIMIT,
    select: { id: true, serverId: true, kind: true, severity: true, status: true, title: true, toolName: true, createdAt: true },
  });
  return rows.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() }));
}
