import type { Db } from "../lib/db";
import { DiscoverySession, type DiscoveryOptions } from "../lib/discovery/discovery-session";
import { listRunnableServers } from "../lib/servers/list-runnable-servers";
import { createSessionSink } from "./session-sink";

type Running = { configHash: string; session: DiscoverySession };

/**
 * Reconciles desired servers (the database) against running sessions by config hash: new ones
 * start, edited ones restart, disabled or deleted ones stop. Calls are serialised so two
 * triggers (timer and NOTIFY) never race.
 */
export class Scheduler {
  private readonly running = new Map<string, Running>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly workerId: string,
    private readonly options: Omit<DiscoveryOptions, "pollIntervalMs">,
    private readonly log: (line: string) => void,
  ) {}

  get size(): number {
    return this.running.size;
  }

  reconcile(): Promise<void> {
    this.chain = this.chain.then(() => this.reconcileNow()).catch((error: Error) => this.log(`reconcile failed: ${error.message}`));
    return this.chain;
  }

  private async reconcileNow(): Promise<void> {
    const desired = await listRunnableServers(this.db, this.key);
    const wanted = new Set(desired.map((d) => d.serverId));
    const stops: Promise<void>[] = [];
    for (const [serverId, run] of this.running) {
      if (!wanted.has(serverId)) {
        this.running.delete(serverId);
        stops.push(run.session.stop());
      }
    }
    for (const server of desired) {
      const current = this.running.get(server.serverId);
      if (current?.configHash === server.configHash) continue;
      if (current) {
        this.log(`${server.name}: configuration changed, restarting session`);
        await current.session.stop();
      }
      const log = (line: string) => this.log(`${server.name}: ${line}`);
      const ctx = { tenantId: server.tenantId, actor: { kind: "system" as const, id: this.workerId }, db: this.db };
      const session = new DiscoverySession(
        server.config,
        { ...this.options, pollIntervalMs: server.pollIntervalSeconds * 1000 },
        createSessionSink(ctx, server.serverId, this.workerId, log),
      );
      this.running.set(server.serverId, { configHash: server.configHash, session });
      session.start();
    }
    await Promise.all(stops);
  }

  refresh(serverId: string): boolean {
    const run = this.running.get(serverId);
    run?.session.refresh("manual");
    return Boolean(run);
  }

  async stopAll(): Promise<void> {
    await this.chain;
    const sessions = [...this.running.values()].map((r) => r.session);
    this.running.clear();
    await Promise.all(sessions.map((s) => s.stop()));
  }
}
