import { randomUUID } from "node:crypto";
import { z } from "zod";
import { actorLabel } from "../audit-log/record-audit";
import { requirePermission } from "../auth/permissions";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { REALTIME_CHANNEL, type RealtimeEvent } from "../realtime/events";
import { getSecretKey } from "../secrets";
import { invalidInput } from "../validation";
import { invalidateServerPages } from "./server-page-cache";
import { assertWithinQuota } from "../tenants/team-quota";
import { prepareServerCreate, withNameConflict, type StdioPermission } from "./save-server";
import { targetRefusals } from "../network/check-target";

export const MAX_BATCH_SERVERS = 1_000;

export const BatchInput = z
  .object({
    servers: z.array(z.unknown()).min(1, "send at least one server").max(MAX_BATCH_SERVERS, `at most ${MAX_BATCH_SERVERS} servers per call`),
  })
  .strict();

export type BatchItemError = { index: number; message: string };
export type BatchCreated = { created: number; items: { index: number; id: string; name: string }[] };

/**
 * Registers many servers at once (bulk onboarding of a fleet): each body is what
 * POST /api/v1/servers takes, checked the same way (schema, stdio policy, sealed secrets). All or
 * nothing: any bad item refuses the whole call with every problem by index, and nothing is
 * written. The writes are set-based (one INSERT of servers, one of audit events) in one
 * transaction, and the worker is told once.
 */
export async function createServersBatch(ctx: ServiceContext, raw: unknown, permission: StdioPermission): Promise<BatchCreated> {
  requirePermission(ctx, "server:write");
  const parsed = BatchInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const key = getSecretKey();
  const errors: (BatchItemError & { code: AppError["code"] })[] = [];
  const prepared: (ReturnType<typeof prepareServerCreate> & { index: number })[] = [];
  const seen = new Map<string, number>();
  parsed.data.servers.forEach((body, index) => {
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
  const taken = await ctx.db.$queryRaw<{ name: string }[]>`SELECT name FROM mcp_server WHERE tenant_id = ${ctx.tenantId}::uuid AND name = ANY(${[...seen.keys()]}::text[])`;
  for (const { name } of taken) errors.push({ index: seen.get(name)!, code: "CONFLICT", message: `name: a server named "${name}" already exists in this team` });
  if (errors.length) throw batchRefused(errors);
  // Quotas count the batch whole. Checked before the batched transaction (which cannot hold the
  // per-team lock across statements): concurrent batches of one team could overshoot together.
  const quota = await assertWithinQuota(ctx, ctx.db, { adding: prepared.length, pollIntervals: prepared.map((p) => p.requestedPoll) });
  for (const p of prepared) if (p.requestedPoll === undefined) p.data.pollIntervalSeconds = Math.max(p.data.pollIntervalSeconds, quota.minPollSeconds);

  // Ids minted here so servers, their audit events and the NOTIFY go to Postgres as one batched
  // transaction (one round trip, no interactive transaction whose timeout a slow host could hit).
  const rows = prepared.map((p) => ({ ...p, id: randomUUID() }));
  // Raw, set-based SQL with the rows as one jsonb parameter: Prisma's createMany of 1,000 rows ran
  // through its query compiler's WebAssembly memory, which never shrinks: the web process kept
  // ~100 MiB more RSS after each batch (measured; bench/RESULTS.md, "web RSS").
  const servers = rows.map((r) => ({
    id: r.id, name: r.data.name, transport: r.data.transport, command: r.data.command, args: r.data.args, cwd: r.data.cwd,
    env_encrypted: r.data.envEncrypted, url: r.data.url, headers_encrypted: r.data.headersEncrypted, tags: r.data.tags,
    enabled: r.data.enabled, poll_interval_seconds: r.data.pollIntervalSeconds, config_hash: r.data.configHash, audit_policy: r.data.auditPolicy ?? "trust_first",
  }));
  const audits = rows.map((r) => ({ target_id: r.id, details: { ...r.auditDetails, batch: true } }));
  await withNameConflict("(one of the batch)", () =>
    ctx.db.$transaction([
      ctx.db.$executeRaw`
        INSERT INTO mcp_server (id, tenant_id, name, transport, command, args, cwd, env_encrypted, url, headers_encrypted, tags, enabled, poll_interval_seconds, config_hash, audit_policy, updated_at)
        SELECT x.id, ${ctx.tenantId}::uuid, x.name, x.transport::transport_kind, x.command, x.args, x.cwd, x.env_encrypted, x.url, x.headers_encrypted, x.tags, x.enabled,
               x.poll_interval_seconds, x.config_hash, x.audit_policy::audit_policy, now()
          FROM jsonb_to_recordset(${JSON.stringify(servers)}::jsonb)
            AS x(id uuid, name text, transport text, command text, args text[], cwd text, env_encrypted text, url text, headers_encrypted text, tags text[],
                 enabled boolean, poll_interval_seconds int, config_hash text, audit_policy text)`,
      ctx.db.$executeRaw`
        INSERT INTO audit_event (tenant_id, actor_kind, actor_id, actor_label, action, target_type, target_id, details)
        SELECT ${ctx.tenantId}::uuid, ${ctx.actor.kind}, ${ctx.actor.id}, ${actorLabel(ctx.actor)}, 'server.created', 'server', x.target_id, x.details
          FROM jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) AS x(target_id text, details jsonb)`,
      ctx.db.$executeRaw`SELECT pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify({ type: "server:changed", tenantId: ctx.tenantId, serverId: rows[0]!.id } satisfies RealtimeEvent)})`,
    ]),
  );
  const created = { created: rows.length, items: rows.map((r) => ({ index: r.index, id: r.id, name: r.data.name })) };
  invalidateServerPages(ctx.tenantId);
  return created;
}

/** Forbidden items make it a 403; else any invalid item a 400; else (names taken) a 409. */
function batchRefused(all: (BatchItemError & { code: AppError["code"] })[]): AppError {
  const errors = all.sort((a, b) => a.index - b.index).map(({ index, message }) => ({ index, message }));
  const codes = new Set(all.map((e) => e.code));
  const code = codes.has("FORBIDDEN") ? "FORBIDDEN" : codes.has("INVALID_INPUT") ? "INVALID_INPUT" : "CONFLICT";
  const first = errors[0]!;
  return new AppError(code, `${errors.length} of the servers cannot be registered, so none were (first: item ${first.index}: ${first.message})`, { errors });
}
