// Verified API keys, remembered by a web process for a short while so that a busy key costs no
// database round trip per request (bench/RESULTS.md, issue 12: the key read was the one statement
// every API request still made).
//
// Why a cached key cannot outlive its revocation:
// - Every change to a key row that matters (revoked, deleted, expiry, role, team) NOTIFYs
//   `toolwatch_api_keys` from a trigger (migration 20261203130000_api_key_notify), whatever wrote it.
// - Each web process LISTENs on that channel (./api-key-feed.ts). Before answering from memory, a
//   request waits for a round trip on that same connection that *started after the request
//   arrived* (a "barrier", shared by every request that arrived meanwhile). Postgres delivers
//   pending notifications before a query's result on that connection, so a revocation committed
//   before the request arrived has been heard (and the cache dropped) before the cache is read.
// - An answer read from the database while a notice arrived is not stored (generations), and
//   while the feed is down (connecting, lost) nothing is cached: every request reads the database.
// Entries expire after TTL_MS anyway; an expiry date is checked on every hit.

/** What verify-api-key reads for a key; the same shape is cached. */
export type KeyRow = { id: string; name: string | null; start: string | null; metadata: string | null; referenceId: string; enabled: boolean | null; expiresAt: Date | null };

/** The listening connection, as the cache needs it. */
export type KeyFeed = { barrier(): Promise<void> };

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

type Entry = { row: KeyRow; generation: number; at: number; touchedAt: number };
// On globalThis: server.ts (which runs the feed) and the route handlers Next bundles load separate
// copies of this module in one process, and must share one state.
type State = { feed: KeyFeed | null; generation: number; entries: Map<string, Entry> };
const holder = globalThis as unknown as { __toolwatchApiKeys?: State };
const state = (holder.__toolwatchApiKeys ??= { feed: null, generation: 0, entries: new Map() });

/** The feed is listening (a feed) or not (null): without one, nothing is cached. */
export function setApiKeyFeed(feed: KeyFeed | null): void {
  state.feed = feed;
  forgetApiKeys();
}

/** A key changed somewhere (or notices may have been missed): forget every key. */
export function forgetApiKeys(): void {
  state.generation++;
  state.entries.clear();
}

/**
 * The remembered row for a key hash, or undefined (not cached, or the feed cannot vouch for it:
 * read the database). Waits for the feed's barrier first; see the top of this file.
 */
export async function cachedApiKey(hash: string, now = Date.now()): Promise<Entry | undefined> {
  const feed = state.feed;
  if (!feed || state.entries.size === 0) return undefined;
  try {
    await feed.barrier();
  } catch {
    return undefined;
  }
  if (state.feed !== feed) return undefined;
  const entry = state.entries.get(hash);
  if (!entry || entry.generation !== state.generation || now - entry.at >= TTL_MS) return undefined;
  return entry;
}

/** The generation to pass to rememberApiKey, read before the database is. */
export function apiKeyGeneration(): number {
  return state.generation;
}

/** Remembers a key that verified, unless a change was heard since `generation` was read. */
export function rememberApiKey(hash: string, row: KeyRow, generation: number, now = Date.now()): void {
  if (!state.feed || generation !== state.generation) return;
  if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
  state.entries.set(hash, { row, generation, at: now, touchedAt: now });
}
