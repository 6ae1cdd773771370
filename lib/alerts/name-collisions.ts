// name_collision: one alert per team and tool name while two or more of the team's servers offer
// it, listing them, kept up to date as servers start or stop offering the name (here) or are
// deleted (the server-delete trigger of migration 20261201151500).
import type { Tx } from "@/lib/db";
import type { Alert } from "@/lib/generated/prisma/client";
import type { AlertDetails } from "./alert-dto";
import { openAlert, quoteName, resolveAlert, updateAlert } from "./alert-store";
import { SYSTEM_ACTOR, type Evaluation } from "./evaluation";

/** Servers listed on one alert; the count is always exact. */
export const MAX_LISTED_SERVERS = 200;

type Listed = { serverId: string; serverName: string };
type Offer = { name: string; total: number; listed: Listed[] };

/** Who offers each name now, first to offer it first (call under lockToolNames for these names). */
async function loadOffers(tx: Tx, tenantId: string, names: readonly string[]): Promise<Offer[]> {
  return tx.$queryRaw<Offer[]>`
    SELECT n.name, c.total, coalesce(l.listed, '[]'::jsonb) AS listed
      FROM unnest(${[...names]}::text[]) AS n(name)
      CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM tool_name_entry e WHERE e.tenant_id = ${tenantId}::uuid AND e.name = n.name) AS c
      CROSS JOIN LATERAL (
        SELECT jsonb_agg(jsonb_build_object('serverId', x.server_id, 'serverName', x.server_name) ORDER BY x.rn) AS listed
          FROM (SELECT e.server_id, m.name AS server_name, row_number() OVER (ORDER BY e.created_at, m.name, e.server_id) AS rn
                  FROM tool_name_entry e JOIN mcp_server m ON m.id = e.server_id AND m.tenant_id = ${tenantId}::uuid
                 WHERE e.tenant_id = ${tenantId}::uuid AND e.name = n.name
                 ORDER BY rn LIMIT ${MAX_LISTED_SERVERS}) AS x
      ) AS l`;
}

/**
 * Brings the collision alert of each name that joined or left this server up to date. The alert
 * is anchored on the first server that offered the name (the alert table needs a server; the
 * list names them all) and moves to the next one if that server stops offering it. It is
 * resolved ("superseded") once fewer than two servers offer the name. Alerts from before this
 * scheme (one per pair of servers) are merged: the oldest is kept, the others resolved.
 */
export async function evaluateCollisions(ev: Evaluation, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const { tx, tenantId } = ev;
  const offers = await loadOffers(tx, tenantId, names);
  const unresolved = await tx.alert.findMany({
    where: { tenantId, kind: "name_collision", toolName: { in: [...names] }, status: { not: "resolved" } },
    orderBy: { createdAt: "asc" },
  });
  for (const offer of offers) {
    const [kept, ...stale] = unresolved.filter((a) => a.toolName === offer.name);
    for (const alert of stale) await resolve(ev, alert);
    const details: AlertDetails = { collisions: offer.listed, serverCount: offer.total };
    if (offer.total < 2) {
      if (!kept) continue;
      // Kept as history on the server that still offers the name, not on one that may be deleted.
      const stays = offer.listed[0]?.serverId;
      await updateAlert(tx, tenantId, kept, { serverId: stays && stays !== kept.serverId ? stays : undefined, details: { ...(kept.details as AlertDetails), ...details } });
      await resolve(ev, { ...kept, serverId: stays ?? kept.serverId });
      continue;
    }
    const anchor = offer.listed[0]!.serverId;
    const title = collisionTitle(offer.name, offer.listed, offer.total);
    if (!kept) {
      const snapshotId = anchor === ev.server.id ? ev.snapshot.id : null;
      ev.result.opened.push(await openAlert(tx, tenantId, { serverId: anchor, kind: "name_collision", severity: "medium", title, toolName: offer.name, snapshotId, details }));
      continue;
    }
    const previous = (kept.details ?? {}) as AlertDetails;
    if (kept.serverId === anchor && previous.serverCount === offer.total && JSON.stringify(previous.collisions) === JSON.stringify(offer.listed)) continue;
    await updateAlert(tx, tenantId, kept, { serverId: anchor !== kept.serverId ? anchor : undefined, title, details: { ...previous, ...details } });
    ev.result.updated.push(kept.id);
  }
}

async function resolve(ev: Evaluation, alert: Alert): Promise<void> {
  await resolveAlert(ev.tx, ev.tenantId, alert, "superseded", SYSTEM_ACTOR);
  ev.result.resolved.push(alert.id);
}

/** Same wording as the server-delete trigger writes. */
export function collisionTitle(name: string, listed: readonly Listed[], total: number): string {
  const first = listed.slice(0, 3).map((c) => c.serverName).join(", ");
  return `${quoteName(name)} is offered by ${total} servers: ${first}${total > 3 ? ` and ${total - 3} more` : ""}`;
}
