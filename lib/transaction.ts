import type { ServiceContext } from "./context";
import type { Tx } from "./db";

type TransactionOptions = { maxWait?: number; timeout?: number };

/**
 * Runs `fn` in one database transaction: the caller's when `ctx` already carries one (a verb
 * called by another verb), else a new one. `fn` gets the transaction and a ctx that carries it,
 * to hand on to the verbs it calls, so their writes, audit rows and NOTIFYs commit or roll back
 * with the outer ones (openstatus packages/services/src/context.ts has the same shape).
 */
export async function withTransaction<T>(ctx: ServiceContext, fn: (tx: Tx, ctx: ServiceContext) => Promise<T>, options?: TransactionOptions): Promise<T> {
  if (ctx.tx) return fn(ctx.tx, ctx);
  return ctx.db.$transaction((tx) => fn(tx, { ...ctx, tx }), options);
}

/** Where a read goes: the explicit transaction, else the one ctx carries, else the pool. */
export function readerOf(ctx: ServiceContext, tx?: Tx): Tx {
  return tx ?? ctx.tx ?? ctx.db;
}
