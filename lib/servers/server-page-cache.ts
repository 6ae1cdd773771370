import type { RealtimeEvent } from "@/lib/realtime/events";

// Many browsers and scripts poll the fleet list; most of the time nothing changed since the last
// answer. A web process that hears every change (the realtime LISTEN feed: the worker's and every
// web process's writes NOTIFY on commit) may answer a repeated query from memory until a change of
// that team arrives. Without that feed (tests, scripts, the feed reconnecting) nothing is cached.
// A team's generation moves on each change; an entry computed under an older generation is stale,
// and an answer computed while a change arrived is stored under the generation read before it.

/** Even with the feed up, no answer is older than this (a NOTIFY lost in a reconnect). */
const MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 500;

/** Events after which a team's fleet list (open alerts per row included) or overview may read differently. */
const FLEET_EVENTS = new Set<RealtimeEvent["type"]>(["server:changed", "session:statusChanged", "snapshot:recorded", "snapshot:confirmed", "alert:changed"]);

type Entry<T> = { generation: number; at: number; value: T };

// On globalThis: server.ts (which runs the feed) and the bundled route handlers load separate
// copies of this module in one process, and must share one state.
// `computing`: answers being read, so that concurrent misses of one query (50 clients polling
// while the worker's changes keep invalidating) share one database read instead of each making it.
type State = { feedUp: boolean; generations: Map<string, number>; entries: Map<string, Entry<unknown>>; computing?: Map<string, { generation: number; value: Promise<unknown> }> };
const holder = globalThis as unknown as { __toolwatchServerPages?: State };
const state: State = (holder.__toolwatchServerPages ??= { feedUp: false, generations: new Map(), entries: new Map() });
const { generations, entries } = state;
const computing = (state.computing ??= new Map());

const generationOf = (tenantId: string) => generations.get(tenantId) ?? 0;

/** The feed connected (true) or dropped (false): while down, every answer comes from the database. */
export function setServerPageFeed(up: boolean): void {
  state.feedUp = up;
  entries.clear();
  computing.clear();
}

/** Something of this team changed: its cached pages are stale. */
export function invalidateServerPages(tenantId: string): void {
  generations.set(tenantId, generationOf(tenantId) + 1);
}

/** For the LISTEN feed: invalidate on the events that change a fleet list. */
export function onFleetEvent(event: RealtimeEvent): void {
  if (FLEET_EVENTS.has(event.type)) invalidateServerPages(event.tenantId);
}

/** The cached answer for (team, query), or compute, store and return it. */
export async function cachedServerPage<T>(tenantId: string, query: string, compute: () => Promise<T>, now = Date.now): Promise<T> {
  if (!state.feedUp) return compute();
  const key = `${tenantId}\n${query}`;
  const generation = generationOf(tenantId);
  const hit = entries.get(key);
  if (hit && hit.generation === generation && now() - hit.at < MAX_AGE_MS) return hit.value as T;
  const pending = computing.get(key);
  // A read that started under this generation reflects every change heard so far.
  if (pending && pending.generation === generation) return pending.value as Promise<T>;
  const value = compute();
  computing.set(key, { generation, value });
  try {
    const result = await value;
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, { generation, at: now(), value: result });
    return result;
  } finally {
    if (computing.get(key)?.value === value) computing.delete(key);
  }
}
