import type { ServiceContext } from "./context";
import type { Tx } from "./db";
import { invalidateServerPages } from "./servers/server-page-cache";

type TransactionOptions = { maxWait?: number; timeout?: number };

/**
 * Runs `fn` in one database transaction: the caller's when `ctx` already carries one (a verb
 * called by another verb), else a new one. `fn` gets the transaction and a ctx that carries it,
 * to hand on to the verbs it calls, so their writes, audit rows and NOTIFYs commit or roll back
 * with the outer ones (openstatus packages/services/src/context.ts has the same shape).
 */
export async function withTransaction<T>(ctx: ServiceContext, fn: (tx: Tx, ctx: ServiceContext) => Promise<T>, options?: TransactionOptions): Promise<T> {
  if (ctx.tx) return fn(ctx.tx, ctx);
  const result = await ctx.db.$transaction((tx) => fn(tx, { ...ctx, tx }), options);
  // This process's cached lists of the team (fleet, alerts, overview, budget) drop at commit, not
  // when the NOTIFY comes back through the feed: a reader right after a write sees the write.
  invalidateServerPages(ctx.tenantId);
  return result;
}

/** Where a read goes: the explicit transaction, else the one ctx carries, else the pool. */
export function readerOf(ctx: ServiceContext, tx?: Tx): Tx {
  return tx ?? ctx.tx ?? ctx.db;
}
