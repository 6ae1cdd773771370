import type { ServiceContext } from "../context";
import { getSecretKey } from "../secrets";
import type { ServerSummary } from "./server-dto";
import { toServerSummary } from "./to-server-summary";

/** The fleet page: every server of the tenant with its live state and latest snapshot. */
export async function listServers(ctx: ServiceContext): Promise<ServerSummary[]> {
  const [rows, latest] = await Promise.all([
    ctx.db.mcpServer.findMany({
      where: { tenantId: ctx.tenantId },
      include: { session: true, _count: { select: { snapshots: true } } },
      orderBy: { name: "asc" },
    }),
    ctx.db.snapshot.findMany({
      where: { tenantId: ctx.tenantId },
      orderBy: [{ serverId: "asc" }, { takenAt: "desc" }],
      distinct: ["serverId"],
      select: { id: true, serverId: true, toolCount: true },
    }),
  ]);
  const latestByServer = new Map(latest.map((s) => [s.serverId, s]));
  const key = getSecretKey();
  return rows.map((row) => toServerSummary(key, row, latestByServer.get(row.id) ?? null));
}
