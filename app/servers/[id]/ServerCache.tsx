"use client";

import Link from "next/link";
import { CacheFreshness, scopeText, ttlText } from "@/app/_components/cache/CacheFreshness";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { useCacheQuery } from "@/app/_hooks/cache-queries";
import { useNow } from "@/app/_hooks/use-now";

/** Facts-list rows: the cache entry this server's current list came from (nothing before the first listing). */
export function ServerCache({ serverId }: { serverId: string }) {
  const { data } = useCacheQuery(serverId);
  const now = useNow();
  const entry = data?.items.find((e) => e.current);
  if (!entry) return null;
  const how = entry.lastOutcome === "hit" ? (entry.shared ? "served from the shared public cache" : "served from this team's cache") : "fetched from the server";
  return (
    <>
      <dt>Cache entry</dt>
      <dd data-testid="server-cache">
        <code>{entry.entryId.slice(0, 8)}</code> · {scopeText(entry)} · TTL {ttlText(entry.ttlMs)} · <CacheFreshness entry={entry} now={now} />
        <div className="muted small">
          Last list {how} (<RelativeTime iso={entry.lastAt} />, {entry.lastReason}); fetched <RelativeTime iso={entry.fetchedAt} /> ·{" "}
          {plural(entry.hits, "hit")}, {plural(entry.misses, "miss", "misses")}, {plural(entry.refreshes, "refresh", "refreshes")} · <Link href="/team/cache">cache page</Link>
        </div>
      </dd>
    </>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
