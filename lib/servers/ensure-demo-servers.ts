import type { ServiceContext } from "@/lib/context";
import { notifyInTx } from "@/lib/realtime/notify";
import { connectionColumns } from "./connection-columns";
import { ServerConnectionConfig } from "./server-config";

export type DemoServerSpec = {
  key: string;
  name: string;
  tags: string[];
  pollIntervalSeconds?: number;
  config: ServerConnectionConfig;
};

/**
 * Keeps the tenant's demo servers in line with the running demo fleet: paths and ports differ per
 * machine and per start, so the config is refreshed each time (history is kept: same row).
 */
// internal-writer: the demo fleet's setup by the worker (system actor)
export async function ensureDemoServers(ctx: ServiceContext, key: Buffer, specs: DemoServerSpec[]): Promise<void> {
  for (const spec of specs) {
    const config = ServerConnectionConfig.parse(spec.config);
    const data = { name: spec.name, tags: spec.tags, pollIntervalSeconds: spec.pollIntervalSeconds ?? 300, ...connectionColumns(key, config) };
    await ctx.db.$transaction(async (tx) => {
      const existing = await tx.mcpServer.findFirst({
        where: { tenantId: ctx.tenantId, demoKey: spec.key },
        select: { id: true, configHash: true },
      });
      if (existing && existing.configHash === data.configHash) return;
      const row = existing
        ? await tx.mcpServer.update({ where: { id: existing.id }, data, select: { id: true } })
        : await tx.mcpServer.create({ data: { ...data, tenantId: ctx.tenantId, demoKey: spec.key }, select: { id: true } });
      await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
    });
  }
}
