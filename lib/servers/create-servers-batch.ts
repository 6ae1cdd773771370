import { randomUUID } from "node:crypto";
import { z } from "zod";
import { actorLabel } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import type { Db, Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { REALTIME_CHANNEL, type RealtimeEvent } from "@/lib/realtime/events";
import { getSecretKey } from "@/lib/secrets";
import { invalidInput } from "@/lib/validation";
import { invalidateServerPages } from "./server-page-cache";
import { assertWithinQuota } from "@/lib/tenants/team-quota";
import { prepareServerCreate, type StdioPermission } from "./prepare-server-write";
import { withNameConflict } from "./server-name-conflict";
import { stdioPermissionFor } from "./stdio-policy";
import { targetRefusals } from "@/lib/network/check-target";

export const MAX_BATCH_SERVERS = 1_000;

export const BatchInput = z
  .object({
    servers: z.array(z.unknown()).min(1, "send at least one server").max(MAX_BATCH_SERVERS, `at most ${MAX_BATCH_SERVERS} servers per call`),
  })
  .strict();

export type BatchItemError = { index: number; message: string };
export type BatchCreated = { created: number; items: { index: number; id: string; name: string }[] };

export type PreparedCreate = ReturnType<typeof prepareServerCreate> & { index: number };
type ItemProblem = BatchItemError & { code: AppError["code"] };

/**
 * Registers many servers at once (bulk onboarding of a fleet): each body is what
 * POST /api/v1/servers takes, checked the same way (schema, stdio policy, sealed secrets). All or
 * nothing: any bad item refuses the whole call with every problem by index, and nothing is
 * written. The writes are set-based (one INSERT of servers, one of audit events) in one
 * transaction, and the worker is told once.
 */
// internal-writer: authorized above; its audit rows are written set-based by insertServerStatements (one INSERT for the batch), not by recordAudit
export async function createServersBatch(ctx: ServiceContext, raw: unknown, permission: StdioPermission = stdioPermissionFor(ctx)): Promise<BatchCreated> {
  requirePermission(ctx, "server:write");
  const parsed = BatchInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { prepared, errors } = await prepareServerCreates(ctx, parsed.data.servers, permission);
  if (errors.length) throw batchRefused(errors);
  // Quotas count the batch whole. Checked before the batched transaction (which cannot hold the
  // per-team lock across statements): concurrent batches of one team could overshoot together.
  const quota = await assertWithinQuota(ctx, ctx.db, { adding: prepared.length, pollIntervals: prepared.map((p) => p.requestedPoll) });
  const rows = withIds(prepared, quota.minPollSeconds);
  // One batched transaction (one round trip, no interactive transaction whose timeout a slow host could hit).
  await withNameConflict("(one of the batch)", () =>
    ctx.db.$transaction([
      ...insertServerStatements(ctx, ctx.db, rows),
      ctx.db.$executeRaw`SELECT pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify({ type: "server:changed", tenantId: ctx.tenantId, serverId: rows[0]!.id } satisfies RealtimeEvent)})`,
    ]),
  );
  const created = { created: rows.length, items: rows.map((r) => ({ index: r.index, id: r.id, name: r.data.name })) };
  invalidateServerPages(ctx.tenantId);
  return created;
}

/**
 * Every body checked as POST /api/v1/servers checks one (schema, stdio policy, private targets),
 * plus names repeated among them or taken in the team. Writes nothing; each problem by index.
 */
export async function prepareServerCreates(ctx: ServiceContext, bodies: readonly unknown[], permission: StdioPermission): Promise<{ prepared: PreparedCreate[]; errors: ItemProblem[] }> {
  const key = getSecretKey();
  const errors: ItemProblem[] = [];
  const prepared: PreparedCreate[] = [];
  const seen = new Map<string, number>();
  bodies.forEach((body, index) => {
    try {
      const item = prepareServerCreate(ctx, body, permission, key);
      const first = seen.get(item.data.name);
      if (first !== undefined) {
        errors.push({ index, code: "CONFLICT", message: `name: "${item.data.name}" is also item ${first} of this batch` });
        return;
      }
      seen.set(item.data.name, index);
      prepared.push({ ...item, index });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push({ index, code: error.code, message: error.message });
    }
  });
  const refusals = await targetRefusals(ctx, prepared.map((p) => p.data.url ?? undefined));
  refusals.forEach((refusal, i) => refusal && errors.push({ index: prepared[i]!.index, ...refusal }));
  const taken = seen.size ? await ctx.db.$queryRaw<{ name: string }[]>`SELECT name FROM mcp_server WHERE tenant_id = ${ctx.tenantId}::uuid AND name = ANY(${[...seen.keys()]}::text[])` : [];
  for (const { name } of taken) errors.push({ index: seen.get(name)!, code: "CONFLICT", message: `name: a server named "${name}" already exists in this team` });
  const bad = new Set(errors.map((e) => e.index));
  return { prepared: prepared.filter((p) => !bad.has(p.index)), errors };
}

/** Ids minted here (so the servers, their audit events and a NOTIFY can go in one statement list); the team's minimum poll raises unchosen intervals. */
export function withIds(prepared: PreparedCreate[], minPollSeconds: number): (PreparedCreate & { id: string })[] {
  for (const p of prepared) if (p.requestedPoll === undefined) p.data.pollIntervalSeconds = Math.max(p.data.pollIntervalSeconds, minPollSeconds);
  return prepared.map((p) => ({ ...p, id: randomUUID() }));
}

/**
 * The two set-based INSERTs (servers, then their audit events) on `db`, the client or an open
 * transaction. Raw SQL with the rows as one jsonb parameter: Prisma's createMany of 1,000 rows ran
 * through its query compiler's WebAssembly memory, which never shrinks: the web process kept
 * ~100 MiB more RSS after each batch (measured; bench/RESULTS.md, "web RSS").
 */
// internal-writer: the set-based statements of createServersBatch and importServers, which authorize; it writes their audit rows
export function insertServerStatements(ctx: ServiceContext, db: Db | Tx, rows: (PreparedCreate & { id: string })[], auditDetails: Record<string, unknown> = { batch: true }) {
  const servers = rows.map((r) => ({
    id: r.id, name: r.data.name, transport: r.data.transport, command: r.data.command, args: r.data.args, cwd: r.data.cwd,
    env_encrypted: r.data.envEncrypted, url: r.data.url, headers_encrypted: r.data.headersEncrypted, tags: r.data.tags,
    enabled: r.data.enabled, poll_interval_seconds: r.data.pollIntervalSeconds, config_hash: r.data.configHash, audit_policy: r.data.auditPolicy ?? "trust_first",
    auth_config: "authConfig" in r.data ? r.data.authConfig : null, auth_secret_encrypted: "authSecretEncrypted" in r.data ? r.data.authSecretEncrypted : null,
  }));
  const audits = rows.map((r) => ({ target_id: r.id, details: { ...r.auditDetails, ...auditDetails } }));
  return [
    db.$executeRaw`
        INSERT INTO mcp_server (id, tenant_id, name, transport, command, args, cwd, env_encrypted, url, headers_encrypted, tags, enabled, poll_interval_seconds, config_hash, audit_policy, auth_config, auth_secret_encrypted, updated_at)
        SELECT x.id, ${ctx.tenantId}::uuid, x.name, x.transport::transport_kind, x.command, x.args, x.cwd, x.env_encrypted, x.url, x.headers_encrypted, x.tags, x.enabled,
               x.poll_interval_seconds, x.config_hash, x.audit_policy::audit_policy, x.auth_config, x.auth_secret_encrypted, now()
          FROM jsonb_to_recordset(${JSON.stringify(servers)}::jsonb)
            AS x(id uuid, name text, transport text, command text, args text[], cwd text, env_encrypted text, url text, headers_encrypted text, tags text[],
                 enabled boolean, poll_interval_seconds int, config_hash text, audit_policy text, auth_config jsonb, auth_secret_encrypted text)`,
    db.$executeRaw`
        INSERT INTO audit_event (tenant_id, actor_kind, actor_id, actor_label, action, target_type, target_id, details)
        SELECT ${ctx.tenantId}::uuid, ${ctx.actor.kind}, ${ctx.actor.id}, ${actorLabel(ctx.actor)}, 'server.created', 'server', x.target_id, x.details
          FROM jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) AS x(target_id text, details jsonb)`,
  ];
}

/** Forbidden items make it a 403; else any invalid item a 400; else (names taken) a 409. */
function batchRefused(all: ItemProblem[]): AppError {
  const errors = all.sort((a, b) => a.index - b.index).map(({ index, message }) => ({ index, message }));
  const codes = new Set(all.map((e) => e.code));
  const code = codes.has("FORBIDDEN") ? "FORBIDDEN" : codes.has("INVALID_INPUT") ? "INVALID_INPUT" : "CONFLICT";
  const first = errors[0]!;
  return new AppError(code, `${errors.length} of the servers cannot be registered, so none were (first: item ${first.index}: ${first.message})`, { errors });
}
