import type { ContextTokenCounter } from "./count-tokens";

let loading: Promise<ContextTokenCounter> | undefined;

/** The counter, loading the tokenizer on first use only (processes that never store a listing never pay for it). */
export function loadContextTokenCounter(): Promise<ContextTokenCounter> {
  loading ??= import("./count-tokens").then((m) => m.countContextTokens);
  return loading;
}

/** Counts kept by content address; a fleet deployed from one template counts each tool once. */
const MEMO_LIMIT = 20_000;
const memo = new Map<string, number>();

/**
 * A counter of content-addressed items: `hash` addresses the definition (and a surface item's
 * kind), so one count serves every server that lists the same version. At most MEMO_LIMIT counts
 * are kept (the oldest go first), about 2 MB.
 */
export async function loadAddressCounter(): Promise<(kind: string, hash: string, definition: unknown) => number> {
  const count = await loadContextTokenCounter();
  return (kind, hash, definition) => {
    const key = memoKey(kind, hash);
    const known = memo.get(key);
    if (known !== undefined) return known;
    const tokens = count(kind, definition);
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
    memo.set(key, tokens);
    return tokens;
  };
}

/** A count this process already made for the content address, without counting (undefined if none). */
export function knownAddressCount(kind: string, hash: string): number | undefined {
  return memo.get(memoKey(kind, hash));
}

const memoKey = (kind: string, hash: string) => `${kind}\u0000${hash}`;
