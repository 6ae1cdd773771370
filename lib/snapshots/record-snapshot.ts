import type { ServiceContext } from "../context";
import type { Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { notifyInTx } from "../realtime/notify";
import { assertLeaseHeld } from "../workers/leases";
import { hashTool, hashToolList } from "./canonical-hash";
import { summarizeChange } from "./summarize-change";

export type SnapshotTrigger = "connect" | "list_changed" | "poll" | "ttl_expiry" | "reconnect" | "relisten" | "manual";

export type RecordSnapshotInput = {
  serverId: string;
  /** Raw tool objects as the server sent them, in server order. */
  tools: ReadonlyArray<{ name: string } & Record<string, unknown>>;
  trigger: SnapshotTrigger;
  protocolVersion?: string | null;
  era?: string | null;
  serverVersion?: string | null;
  ttlMs?: number | null;
  cacheScope?: string | null;
  /** Keyed hash of the credentials used ("anonymous" without any); see authContextOf. */
  authContext?: string | null;
  /** The tool-list cache entry the list came from, and whether it was served without a tools/list call. */
  cacheEntryId?: string | null;
  fromCache?: boolean;
  /** How the list was obtained (pages, restarts, dropped items, warnings); not hashed. */
  diagnostics?: object | null;
  /** Problems of this listing that still allowed a snapshot; stored on the session ([] clears). */
  warnings?: string[];
  /** When set, the write is fenced: it only commits while this worker holds the server's lease. */
  leaseHolder?: string;
  at?: Date;
};

export type RecordSnapshotResult = { kind: "created" | "confirmed"; snapshotId: string; contentHash: string };

/**
 * Stores one complete tool list. Tool definitions are content-addressed, so an unchanged tool is
 * never stored twice; an unchanged list writes no snapshot and only moves "last confirmed".
 * Snapshot, session bookkeeping and the NOTIFY commit together.
 */
export async function recordSnapshot(ctx: ServiceContext, input: RecordSnapshotInput): Promise<RecordSnapshotResult> {
  const at = input.at ?? new Date();
  const hashed = input.tools.map((tool) => ({ name: tool.name, hash: hashTool(tool), tool }));
  const contentHash = hashToolList(hashed);

  return ctx.db.$transaction(async (tx) => {
    // One writer per server at a time, even if two workers briefly overlap during a hand-over.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${input.serverId}))`;
    // Shared with other writers, exclusive for retention: a version pruneHistory finds unreferenced
    // cannot be picked up by a snapshot being written at that moment.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtext('toolwatch:prune'))`;
    if (input.leaseHolder) await assertLeaseHeld(tx, input.serverId, input.leaseHolder);
    const server = await tx.mcpServer.findFirst({ where: { id: input.serverId, tenantId: ctx.tenantId }, select: { id: true } });
    if (!server) throw new Error(`Server ${input.serverId} is not in tenant ${ctx.tenantId}`);

    const latest = await tx.snapshot.findFirst({
      where: { tenantId: ctx.tenantId, serverId: input.serverId },
      orderBy: { takenAt: "desc" },
      select: { id: true, contentHash: true, toolVersionIds: true, serverVersion: true },
    });

    if (latest?.contentHash === contentHash) {
      await tx.snapshot.update({
        where: { id: latest.id },
        data: { lastConfirmedAt: at, confirmCount: { increment: 1 } },
      });
      await touchSession(tx, ctx.tenantId, input.serverId, { lastListedAt: at, ...warningsData(input.warnings) });
      await notifyInTx(tx, { type: "snapshot:confirmed", tenantId: ctx.tenantId, serverId: input.serverId, snapshotId: latest.id });
      return { kind: "confirmed", snapshotId: latest.id, contentHash };
    }

    const versionIds = await upsertToolVersions(tx, ctx.tenantId, hashed);
    const toolVersionIds = hashed.map((t) => versionIds.get(t.hash)!);
    const diffSummary = latest ? await summarizeChange(tx, ctx.tenantId, latest.toolVersionIds, hashed) : null;
    const serverVersion = input.serverVersion ?? null;
    const snapshot = await tx.snapshot.create({
      data: {
        tenantId: ctx.tenantId,
        serverId: input.serverId,
        contentHash,
        toolCount: hashed.length,
        trigger: input.trigger,
        protocolVersion: input.protocolVersion ?? null,
        era: input.era ?? null,
        serverVersion,
        serverVersionChanged: latest !== null && latest.serverVersion !== serverVersion,
        notified: input.trigger === "list_changed",
        authContext: input.authContext ?? null,
        cacheEntryId: input.cacheEntryId ?? null,
        fromCache: input.fromCache ?? false,
        ttlMs: input.ttlMs ?? null,
        cacheScope: input.cacheScope ?? null,
        diagnostics: input.diagnostics ?? undefined,
        toolVersionIds,
        diffSummary: diffSummary ?? undefined,
        takenAt: at,
        lastConfirmedAt: at,
      },
      select: { id: true },
    });
    await touchSession(tx, ctx.tenantId, input.serverId, { lastListedAt: at, lastChangeAt: at, ...warningsData(input.warnings) });
    await notifyInTx(tx, { type: "snapshot:recorded", tenantId: ctx.tenantId, serverId: input.serverId, snapshotId: snapshot.id });
    return { kind: "created", snapshotId: snapshot.id, contentHash };
  });
}

async function upsertToolVersions(
  tx: Tx,
  tenantId: string,
  hashed: ReadonlyArray<{ name: string; hash: string; tool: Record<string, unknown> }>,
): Promise<Map<string, string>> {
  const unique = new Map(hashed.map((t) => [t.hash, t]));
  await tx.toolVersion.createMany({
    data: [...unique.values()].map((t) => ({ tenantId, hash: t.hash, name: t.name, definition: t.tool as object })),
    skipDuplicates: true,
  });
  const rows = await tx.toolVersion.findMany({
    where: { tenantId, hash: { in: [...unique.keys()] } },
    select: { id: true, hash: true },
  });
  return new Map(rows.map((r) => [r.hash, r.id]));
}

function warningsData(warnings: string[] | undefined) {
  if (warnings === undefined) return {};
  return { warnings: warnings.length ? warnings : Prisma.DbNull };
}

async function touchSession(
  tx: Tx,
  tenantId: string,
  serverId: string,
  data: { lastListedAt: Date; lastChangeAt?: Date; warnings?: string[] | typeof Prisma.DbNull },
): Promise<void> {
  await tx.serverSession.upsert({
    where: { serverId },
    create: { serverId, tenantId, ...data },
    update: data,
  });
}
