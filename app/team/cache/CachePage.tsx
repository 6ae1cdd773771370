"use client";

import Link from "next/link";
import { CacheFreshness, hitRateText, scopeText, ttlText } from "@/app/_components/cache/CacheFreshness";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { useCacheQuery } from "@/app/_hooks/cache-queries";
import { useNow } from "@/app/_hooks/use-now";
import { useMeQuery } from "@/app/_hooks/queries";
import { serverHref } from "@/app/_lib/links";

const OUTCOMES: Record<string, string> = { hit: "served from cache", miss: "fetched (no entry yet)", refresh: "fetched again" };

/**
 * The team's tool-list cache: per server, the entries its lists came from, how fresh they are
 * against the server's ttlMs, and this team's own hits, misses and refreshes.
 */
export function CachePage() {
  const { data: me } = useMeQuery();
  const { data, error, isPending } = useCacheQuery();
  const now = useNow();
  if (!me?.team) return null;
  return (
    <section aria-labelledby="cache-heading">
      <h1 id="cache-heading">Tool-list cache</h1>
      <p className="summary">
        Servers speaking protocol 2026-07-28 say how long their tool list stays valid (<code>ttlMs</code>) and for whom (
        <code>cacheScope</code>). A <strong>public</strong> list fetched without credentials is fetched once per TTL for every team
        watching that endpoint; a <strong>private</strong> list is only ever reused by this team under the same credentials. A{" "}
        <code>list_changed</code> notification makes an entry stale at once.
      </p>
      {isPending ? <p aria-busy="true">Loading the cache…</p> : null}
      {error ? <p role="alert">Could not load the cache: {error.message}</p> : null}
      {data ? (
        <>
          <p className="summary" data-testid="cache-totals">
            {data.totals.hits} hit{data.totals.hits === 1 ? "" : "s"} · {data.totals.misses} miss{data.totals.misses === 1 ? "" : "es"} ·{" "}
            {data.totals.refreshes} refresh{data.totals.refreshes === 1 ? "" : "es"} · hit rate {hitRateText(data.totals.hitRate)}
          </p>
          {data.items.length === 0 ? (
            <p className="empty">No cache entries yet: they appear once a server has been listed.</p>
          ) : (
            <table className="fleet cache">
              <thead>
                <tr>
                  <th scope="col">Server</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Fetched</th>
                  <th scope="col">TTL</th>
                  <th scope="col">Freshness</th>
                  <th scope="col" className="num">Hits</th>
                  <th scope="col" className="num">Misses</th>
                  <th scope="col" className="num">Refreshes</th>
                  <th scope="col" className="num">Hit rate</th>
                  <th scope="col">Last use</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={`${e.serverId}:${e.entryId}`} data-testid={`cache-row-${e.serverName}`} className={e.current ? undefined : "muted"}>
                    <th scope="row">
                      <Link href={serverHref(e.serverId)}>{e.serverName}</Link>
                      <div className="muted small">
                        entry <code>{e.entryId.slice(0, 8)}</code> · {e.authContext === "anonymous" ? "no credentials" : "with credentials"}
                        {e.current ? "" : " · earlier entry"}
                      </div>
                    </th>
                    <td data-testid="cache-scope">{scopeText(e)}</td>
                    <td>
                      <RelativeTime iso={e.fetchedAt} />
                      <div className="muted small" title="why the entry was last fetched from the server">
                        on {e.refreshReason} · {e.toolCount} tools
                      </div>
                    </td>
                    <td>{ttlText(e.ttlMs)}</td>
                    <td>
                      <CacheFreshness entry={e} now={now} />
                    </td>
                    <td className="num" data-testid="cache-hits">
                      {e.hits}
                    </td>
                    <td className="num">{e.misses}</td>
                    <td className="num">{e.refreshes}</td>
                    <td className="num">{hitRateText(e.hitRate)}</td>
                    <td>
                      {OUTCOMES[e.lastOutcome] ?? e.lastOutcome} <span className="muted small">({e.lastReason})</span>
                      <div className="muted small">
                        <RelativeTime iso={e.lastAt} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </section>
  );
}
