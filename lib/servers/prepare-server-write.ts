import { AppError } from "@/lib/errors";
import type { ServiceContext } from "@/lib/context";
import type { McpServer } from "@/lib/generated/prisma/client";
import { assertTargetAllowed } from "@/lib/network/check-target";
import { invalidInput } from "@/lib/validation";
import { authColumns, authFromRow, configFromRow, connectionColumns } from "./connection-columns";
import type { ServerConnectionConfig } from "./server-config";
import { ServerInput, ServerPatch } from "./server-input";

// What the server verbs (create, update, batch, import) share: a body checked and turned into the
// columns it writes. No database writes here; the verbs write in their own transaction.

export type StdioPermission = { allowStdio: boolean };

export const DEFAULT_POLL_SECONDS = 300;

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

function secretKeysSet(config: ServerConnectionConfig): Record<string, string[]> {
  return config.transport === "stdio" ? { envKeys: Object.keys(config.env).sort() } : { headerKeys: Object.keys(config.headers).sort() };
}
