import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { notifyInTx } from "../realtime/notify";
import { decryptJson, encryptJson, getSecretKey } from "../secrets";
import { getServerOrThrow } from "./get-server-or-throw";
import { computeConfigHash, type ServerConnectionConfig } from "./server-config";
import { fieldErrors, ServerInput, ServerPatch } from "./server-input";

export type StdioPermission = { allowStdio: boolean };

const TRANSPORT = { stdio: "stdio", "streamable-http": "streamable_http", sse: "sse" } as const;

function columns(key: Buffer, config: ServerConnectionConfig) {
  const stdio = config.transport === "stdio";
  return {
    transport: config.transport,
    command: stdio ? config.command : null,
    args: stdio ? config.args : [],
    cwd: stdio ? (config.cwd ?? null) : null,
    envEncrypted: stdio && Object.keys(config.env).length ? encryptJson(key, config.env) : null,
    url: stdio ? null : config.url,
    headersEncrypted: !stdio && Object.keys(config.headers).length ? encryptJson(key, config.headers) : null,
    configHash: computeConfigHash(key, config),
  };
}

function invalid(error: import("zod").ZodError): AppError {
  const fields = fieldErrors(error);
  return new AppError("INVALID_INPUT", Object.entries(fields).map(([f, m]) => `${f}: ${m}`).join("; "), { fields });
}

/**
 * Registers a server. Running a stdio server means running a command on the worker host, so
 * callers say whether the actor may (instance policy). The worker hears about it by NOTIFY in
 * the same transaction and starts a session within moments.
 */
export async function createServer(ctx: ServiceContext, raw: unknown, permission: StdioPermission) {
  const parsed = ServerInput.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error);
  const input = parsed.data;
  if (input.transport === "stdio" && !permission.allowStdio) {
    throw new AppError("FORBIDDEN", "Registering stdio servers is not allowed for you on this instance (it runs a command on the worker host)");
  }
  const config: ServerConnectionConfig =
    input.transport === "stdio"
      ? { transport: "stdio", command: input.command!, args: input.args ?? [], env: input.env ?? {}, ...(input.cwd ? { cwd: input.cwd } : {}) }
      : { transport: TRANSPORT[input.transport] as "streamable_http" | "sse", url: input.url!, headers: input.headers ?? {} };
  try {
    return await ctx.db.$transaction(async (tx) => {
      const row = await tx.mcpServer.create({
        data: {
          tenantId: ctx.tenantId,
          name: input.name,
          tags: input.tags ?? [],
          enabled: input.enabled ?? true,
          pollIntervalSeconds: input.pollIntervalSeconds ?? 300,
          ...columns(getSecretKey(), config),
        },
        select: { id: true },
      });
      await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
      return row;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A server named "${input.name}" already exists in this team`);
    }
    throw error;
  }
}

/** Edits a server; a changed connection config restarts its session (new config hash). */
export async function updateServer(ctx: ServiceContext, serverId: string, raw: unknown, permission: StdioPermission) {
  const parsed = ServerPatch.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error);
  const patch = parsed.data;
  const row = await getServerOrThrow(ctx, serverId);
  const key = getSecretKey();
  const stdio = row.transport === "stdio";
  if (stdio && (patch.command || patch.args || patch.env || patch.cwd !== undefined) && !permission.allowStdio) {
    throw new AppError("FORBIDDEN", "Editing how a stdio server is run is not allowed for you on this instance");
  }
  if (!stdio && (patch.command || patch.args || patch.env || patch.cwd)) throw new AppError("INVALID_INPUT", "command, args, cwd and env apply to stdio servers only");
  if (stdio && (patch.url || patch.headers)) throw new AppError("INVALID_INPUT", "url and headers apply to HTTP servers only");
  const config: ServerConnectionConfig = stdio
    ? {
        transport: "stdio",
        command: patch.command ?? row.command ?? "",
        args: patch.args ?? row.args,
        env: patch.env ?? (row.envEncrypted ? decryptJson<Record<string, string>>(key, row.envEncrypted) : {}),
        ...((patch.cwd === undefined ? row.cwd : patch.cwd) ? { cwd: (patch.cwd === undefined ? row.cwd : patch.cwd)! } : {}),
      }
    : {
        transport: row.transport as "streamable_http" | "sse",
        url: patch.url ?? row.url ?? "",
        headers: patch.headers ?? (row.headersEncrypted ? decryptJson<Record<string, string>>(key, row.headersEncrypted) : {}),
      };
  if (config.transport !== "stdio" && patch.url) {
    const checked = ServerInput.safeParse({ name: row.name, transport: "streamable-http", url: patch.url });
    if (!checked.success) throw invalid(checked.error);
  }
  return ctx.db.$transaction(async (tx) => {
    await tx.mcpServer.update({
      where: { id: row.id },
      data: {
        ...(patch.name ? { name: patch.name } : {}),
        ...(patch.tags ? { tags: patch.tags } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.pollIntervalSeconds ? { pollIntervalSeconds: patch.pollIntervalSeconds } : {}),
        ...columns(key, config),
      },
    });
    await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
    return { id: row.id };
  });
}

/** Deletes a server and its history; the worker stops its session on the NOTIFY. */
export async function deleteServer(ctx: ServiceContext, serverId: string) {
  const row = await getServerOrThrow(ctx, serverId);
  await ctx.db.$transaction(async (tx) => {
    await tx.mcpServer.delete({ where: { id: row.id } });
    await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
  });
}
