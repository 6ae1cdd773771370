import type { ServiceContext } from "../context";
import { requirePermission } from "../auth/permissions";
import { recordAudit } from "../audit-log/record-audit";
import { AppError } from "../errors";
import { Prisma, type McpServer } from "../generated/prisma/client";
import { notifyInTx } from "../realtime/notify";
import { getSecretKey } from "../secrets";
import { authColumns, authFromRow, configFromRow, connectionColumns } from "./connection-columns";
import { getServerOrThrow } from "./get-server-or-throw";
import { invalidateServerPages } from "./server-page-cache";
import type { ServerConnectionConfig } from "./server-config";
import { invalidInput } from "../validation";
import { assertWithinQuota } from "../tenants/team-quota";
import { ServerInput, ServerPatch } from "./server-input";
import { assertTargetAllowed } from "../network/check-target";
import { saveServerProbeSettings } from "../identity-probes/probe-settings";

export type StdioPermission = { allowStdio: boolean };

const DEFAULT_POLL_SECONDS = 300;

const TRANSPORT = { stdio: "stdio", "streamable-http": "streamable_http", sse: "sse" } as const;

/** A create body checked against the schema and the stdio policy, as the row it becomes (secrets sealed). */
export function prepareServerCreate(ctx: ServiceContext, raw: unknown, permission: StdioPermission, key: Buffer) {
  const parsed = ServerInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const input = parsed.data;
  if (input.transport === "stdio" && !permission.allowStdio) {
    throw new AppError("FORBIDDEN", "Registering stdio servers is not allowed for you on this instance (it runs a command on the worker host)");
  }
  const config: ServerConnectionConfig =
    input.transport === "stdio"
      ? { transport: "stdio", command: input.command!, args: input.args ?? [], env: input.env ?? {}, ...(input.cwd ? { cwd: input.cwd } : {}) }
      : { transport: TRANSPORT[input.transport] as "streamable_http" | "sse", url: input.url!, headers: input.headers ?? {} };
  const auth = input.auth ? authColumns(key, input.auth) : undefined;
  const data = {
    tenantId: ctx.tenantId,
    name: input.name,
    tags: input.tags ?? [],
    enabled: input.enabled ?? true,
    pollIntervalSeconds: input.pollIntervalSeconds ?? DEFAULT_POLL_SECONDS,
    ...(input.auditPolicy ? { auditPolicy: input.auditPolicy } : {}),
    ...connectionColumns(key, config, auth?.auth),
    ...(auth ? auth.columns : {}),
  };
  const auditDetails = {
    name: input.name,
    transport: input.transport,
    ...(input.auditPolicy ? { auditPolicy: input.auditPolicy } : {}),
    ...secretKeysSet(config),
    // The grant and client id only: secrets never enter the audit log.
    ...(auth?.auth ? { auth: { type: "oauth", grant: auth.auth.grant, clientId: auth.auth.clientId } } : {}),
  };
  // Whether the caller chose an interval: without one, the team's minimum may raise the default.
  return { data, auditDetails, requestedPoll: input.pollIntervalSeconds };
}

/**
 * Registers a server. Running a stdio server means running a command on the worker host, so
 * callers say whether the actor may (instance policy). The worker hears about it by NOTIFY in
 * the same transaction and starts a session within moments.
 */
export async function createServer(ctx: ServiceContext, raw: unknown, permission: StdioPermission) {
  requirePermission(ctx, "server:write");
  const { data, auditDetails, requestedPoll } = prepareServerCreate(ctx, raw, permission, getSecretKey());
  // Private and loopback targets are the team's right (TOOLWATCH_PRIVATE_TARGETS); host names are resolved now too.
  if (data.url) await assertTargetAllowed(ctx, data.url);
  const created = await withNameConflict(data.name, () =>
    ctx.db.$transaction(async (tx) => {
      const quota = await assertWithinQuota(ctx, tx, { adding: 1, pollIntervals: [requestedPoll] });
      const row = await tx.mcpServer.create({ data: { ...data, pollIntervalSeconds: requestedPoll ?? Math.max(DEFAULT_POLL_SECONDS, quota.minPollSeconds) }, select: { id: true } });
      await recordAudit(tx, ctx, "server.created", { type: "server", id: row.id }, auditDetails);
      await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
      return row;
    }),
  );
  invalidateServerPages(ctx.tenantId);
  return created;
}

/** A second server with the same name in a team is a 409 (create and rename alike), not a 500. */
export async function withNameConflict<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2002" || isRawUniqueViolation(error))) {
      throw new AppError("CONFLICT", `A server named "${name}" already exists in this team`);
    }
    throw error;
  }
}

/** A unique violation raised by a raw statement (the batch's set-based INSERT) comes as P2010. */
function isRawUniqueViolation(error: Prisma.PrismaClientKnownRequestError): boolean {
  const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: string } } } | undefined)?.driverAdapterError?.cause;
  return error.code === "P2010" && cause?.kind === "UniqueConstraintViolation";
}

/** Edits a server; a changed connection config restarts its session (new config hash). */
export async function updateServer(ctx: ServiceContext, serverId: string, raw: unknown, permission: StdioPermission) {
  requirePermission(ctx, "server:write");
  const row = await getServerOrThrow(ctx, serverId);
  const { patch, data, auditDetails, authChanged } = await prepareServerUpdate(ctx, row, raw, permission, getSecretKey());
  const updated = await withNameConflict(patch.name ?? row.name, () => ctx.db.$transaction(async (tx) => {
    if (patch.pollIntervalSeconds) await assertWithinQuota(ctx, tx, { adding: 0, pollIntervals: [patch.pollIntervalSeconds] });
    await tx.mcpServer.update({ where: { id: row.id }, data });
    if (patch.identityProbes) await saveServerProbeSettings(tx, ctx.tenantId, row.id, patch.identityProbes);
    // Tokens and registrations belong to the old client: a changed OAuth setting starts over.
    if (authChanged || (patch.url && patch.url !== row.url)) await tx.serverOAuthState.deleteMany({ where: { tenantId: ctx.tenantId, serverId: row.id } });
    await recordAudit(tx, ctx, "server.updated", { type: "server", id: row.id }, auditDetails);
    await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
    return { id: row.id };
  }));
  invalidateServerPages(ctx.tenantId);
  return updated;
}

/**
 * A patch of a server the caller's team owns (`row`, loaded tenant-scoped) checked against the
 * schema, the stdio policy and the private-targets rule, as the columns it writes (secrets sealed)
 * and the audit details (field names only: secret values never enter the audit log).
 */
export async function prepareServerUpdate(ctx: ServiceContext, row: McpServer, raw: unknown, permission: StdioPermission, key: Buffer) {
  const parsed = ServerPatch.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const patch = parsed.data;
  const stdio = row.transport === "stdio";
  if (stdio && (patch.command || patch.args || patch.env || patch.cwd !== undefined) && !permission.allowStdio) {
    throw new AppError("FORBIDDEN", "Editing how a stdio server is run is not allowed for you on this instance");
  }
  if (!stdio && (patch.command || patch.args || patch.env || patch.cwd)) throw new AppError("INVALID_INPUT", "command, args, cwd and env apply to stdio servers only");
  if (stdio && (patch.url || patch.headers)) throw new AppError("INVALID_INPUT", "url and headers apply to HTTP servers only");
  if (stdio && patch.auth) throw new AppError("INVALID_INPUT", "auth (OAuth) applies to HTTP servers only");
  const stored = configFromRow(key, row);
  const cwd = patch.cwd === undefined ? row.cwd : patch.cwd;
  const config: ServerConnectionConfig =
    stored.transport === "stdio"
      ? { transport: "stdio", command: patch.command ?? stored.command, args: patch.args ?? stored.args, env: patch.env ?? stored.env, ...(cwd ? { cwd } : {}) }
      : { transport: stored.transport, url: patch.url ?? stored.url, headers: patch.headers ?? stored.headers };
  if (config.transport !== "stdio" && patch.url) {
    const checked = ServerInput.safeParse({ name: row.name, transport: "streamable-http", url: patch.url });
    if (!checked.success) throw invalidInput(checked.error);
    // Only a new address is judged: an unchanged one was judged when saved, and the worker judges every connect.
    if (patch.url !== row.url) await assertTargetAllowed(ctx, patch.url);
  }
  // undefined keeps the stored OAuth settings; an object replaces them, null removes them.
  const newAuth = patch.auth === undefined ? undefined : authColumns(key, patch.auth);
  const auth = newAuth ? newAuth.auth : authFromRow(key, row);
  const data = {
    ...(patch.name ? { name: patch.name } : {}),
    ...(patch.tags ? { tags: patch.tags } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.pollIntervalSeconds ? { pollIntervalSeconds: patch.pollIntervalSeconds } : {}),
    ...(patch.auditPolicy ? { auditPolicy: patch.auditPolicy } : {}),
    ...connectionColumns(key, config, auth),
    ...(newAuth ? newAuth.columns : {}),
  };
  return { patch, data, authChanged: newAuth !== undefined, auditDetails: { name: patch.name ?? row.name, fields: Object.keys(patch).sort(), ...(patch.identityProbes ? { identityProbes: patch.identityProbes } : {}) } };
}

/** Deletes a server and its history; the worker stops its session on the NOTIFY. */
export async function deleteServer(ctx: ServiceContext, serverId: string) {
  requirePermission(ctx, "server:write");
  const row = await getServerOrThrow(ctx, serverId);
  await ctx.db.$transaction(async (tx) => {
    await tx.mcpServer.delete({ where: { id: row.id } });
    await recordAudit(tx, ctx, "server.deleted", { type: "server", id: row.id }, { name: row.name, transport: row.transport });
    await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
  });
  invalidateServerPages(ctx.tenantId);
}

/** Asks the worker that owns the session to re-list now (bypassing TTL freshness). */
export async function requestRefresh(ctx: ServiceContext, serverId: string) {
  requirePermission(ctx, "server:refresh");
  const row = await getServerOrThrow(ctx, serverId);
  if (!row.enabled) throw new AppError("CONFLICT", "This server is disabled: enable it before asking for a refresh");
  await ctx.db.$transaction(async (tx) => {
    await recordAudit(tx, ctx, "server.refresh_requested", { type: "server", id: row.id }, { name: row.name });
    await notifyInTx(tx, { type: "server:refreshRequested", tenantId: ctx.tenantId, serverId: row.id });
  });
  return { id: row.id, requested: true };
}

function secretKeysSet(config: ServerConnectionConfig): Record<string, string[]> {
  return config.transport === "stdio" ? { envKeys: Object.keys(config.env).sort() } : { headerKeys: Object.keys(config.headers).sort() };
}
