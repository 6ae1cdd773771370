import type { ServiceContext } from "../context";
import { notifyInTx } from "../realtime/notify";
import { encryptJson } from "../secrets";
import { computeConfigHash, ServerConnectionConfig } from "./server-config";

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
export async function ensureDemoServers(ctx: ServiceContext, key: Buffer, specs: DemoServerSpec[]): Promise<void> {
  for (const spec of specs) {
    const config = ServerConnectionConfig.parse(spec.config);
    const data = {
      name: spec.name,
      transport: config.transport,
      command: config.transport === "stdio" ? config.command : null,
      args: config.transport === "stdio" ? config.args : [],
      cwd: config.transport === "stdio" ? (config.cwd ?? null) : null,
      envEncrypted: config.transport === "stdio" && Object.keys(config.env).length ? encryptJson(key, config.env) : null,
      url: config.transport === "stdio" ? null : config.url,
      headersEncrypted: config.transport !== "stdio" && Object.keys(config.headers).length ? encryptJson(key, config.headers) : null,
      tags: spec.tags,
      configHash: computeConfigHash(key, config),
      pollIntervalSeconds: spec.pollIntervalSeconds ?? 300,
    };
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
