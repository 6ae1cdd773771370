import { randomUUID } from "node:crypto";

import type { Actor, Role, ServiceContext } from "@/lib/context";
import { createDb, type Db } from "@/lib/db";
import { getSecretKey } from "@/lib/secrets";
import { connectionColumns } from "@/lib/servers/connection-columns";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { testDatabaseUrl } from "./test-database";

// Every suite mints its own tenant; nothing wipes shared tables, so suites cannot interfere.
let db: Db | undefined;
export function testDb(): Db {
  db ??= createDb(testDatabaseUrl());
  return db;
}

/** The same key the product code under test uses (TOOLWATCH_SECRET_KEY from vitest.config.ts). */
export const TEST_KEY = getSecretKey();

export async function createTenantContext(label = "t"): Promise<ServiceContext> {
  const slug = `${label}-${randomUUID().slice(0, 8)}`;
  const tenant = await ensureTenant(testDb(), slug, `Test ${slug}`);
  return { tenantId: tenant.id, actor: { kind: "system", id: "test" }, db: testDb() };
}

export type MakeCtxOptions = {
  /** The actor's role (user and apiKey kinds); default owner. */
  role?: Role;
  /** Who acts: a signed-in person (default), a team API key, the system (the worker), or a share link. */
  kind?: Actor["kind"];
  /** Act in this team instead of a fresh one. */
  tenantId?: string;
};

/**
 * A ServiceContext to call lib verbs with, in a team of its own unless `tenantId` is given: e.g.
 * `makeCtx({ role: "viewer" })` to see a verb refuse, `makeCtx({ kind: "apiKey", role: "admin" })`
 * to see what a key may do. The actor ids are made up (no user or key row behind them): verbs
 * check the actor's role, not its rows.
 */
export async function makeCtx({ role = "owner", kind = "user", tenantId }: MakeCtxOptions = {}): Promise<ServiceContext> {
  const id = randomUUID();
  const team = tenantId ?? (await ensureTenant(testDb(), `ctx-${id.slice(0, 8)}`, `Test ctx-${id.slice(0, 8)}`)).id;
  const actors: Record<Actor["kind"], Actor> = {
    user: { kind: "user", id, label: `${role}-${id.slice(0, 8)}@make-ctx.test`, role, instanceAdmin: false },
    apiKey: { kind: "apiKey", id, label: `API key "${role}-key" (tw_…)`, role },
    system: { kind: "system", id: "test" },
    share: { kind: "share", id, label: "share link", tenantId: team, viewId: null },
  };
  return { tenantId: team, actor: actors[kind], db: testDb() };
}

/** A server row written straight to the table (no permission check, audit row or NOTIFY): test setup, not the createServer verb. */
export async function insertServerRow(ctx: ServiceContext, name: string, config: ServerConnectionConfig, extra: { enabled?: boolean; pollIntervalSeconds?: number } = {}) {
  return ctx.db.mcpServer.create({
    data: {
      tenantId: ctx.tenantId,
      name,
      ...connectionColumns(TEST_KEY, config),
      enabled: extra.enabled ?? true,
      pollIntervalSeconds: extra.pollIntervalSeconds ?? 300,
    },
  });
}

/** Polls a condition that depends on other processes (a server, the worker); fails with the last value seen. */
export async function waitFor<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 500)}`);
}
