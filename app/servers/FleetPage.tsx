"use client";

import { keepPreviousData } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useRef } from "react";
import { SERVER_STATUSES, type ViewFilters } from "@/lib/views/view-input";
import { isEmptyViewFilters, sameViewFilters } from "@/lib/views/view-url";
import { clearFilters, FilterBar, hasNarrowingFilters } from "@/app/_components/fleet/FilterBar";
import { describeFilters, visibleColumns } from "@/app/_components/fleet/filter-labels";
import { FleetTable, type AlertCounts } from "@/app/_components/fleet/FleetTable";
import { MatchingAlerts } from "@/app/_components/fleet/MatchingAlerts";
import { NoMatch } from "@/app/_components/fleet/NoMatch";
import { ViewBar } from "@/app/_components/fleet/ViewBar";
import { LoadMore } from "@/app/_components/fleet/LoadMore";
import { useCan } from "@/app/_hooks/queries";
import { useServerPagesQuery } from "@/app/_hooks/server-list-queries";
import { ALL_SERVERS, useViewUrl } from "@/app/_hooks/use-view-url";
import { useMatchingAlertsQuery, useViewsQuery, type ViewDto } from "@/app/_hooks/view-queries";

/**
 * The fleet, narrowed and ordered by filters that live in the URL. The API filters, sorts, counts
 * and pages (a team may have thousands of servers); more pages load as the list is scrolled. Opening /servers bare
 * (the Fleet link, or `/` when a view is pinned: app/HomePage.tsx) shows the team's pinned view
 * (its filters are written into the URL, so what is on screen is always bookmarkable);
 * `?view=all` shows every server on purpose.
 */
export function FleetPage() {
  const views = useViewsQuery();
  const can = useCan();
  const url = useViewUrl();

  // The team's home applies only to a bare /servers, and only while the views are known.
  const pinned = views.data?.find((v) => v.pinned) ?? null;
  const home = !url.hasFilterParams && url.view === null ? pinned : null;
  const filters: ViewFilters = home ? home.filters : url.filters;
  const applied = useRef(false);
  const { showView } = url;
  useEffect(() => {
    if (!home) {
      applied.current = false; // back on a bare /servers later (the Fleet link): apply it again
      return;
    }
    if (applied.current) return;
    applied.current = true;
    void showView(home.filters, home.id);
  }, [home, showView]);

  const activeId = home?.id ?? (url.view && url.view !== ALL_SERVERS ? url.view : null);
  const active = views.data?.find((v) => v.id === activeId) ?? null;
  const modified = Boolean(active && !sameViewFilters(active.filters, filters));
  const waitingForHome = !url.hasFilterParams && url.view === null && views.isPending;

  const pages = useServerPagesQuery(filters, !waitingForHome, keepPreviousData);
  const { data, error, isPending } = pages;

  const alertsWanted = visibleColumns(filters).includes("alerts") || Boolean(filters.alerts || filters.timeRange);
  const alerts = useMatchingAlertsQuery(filters, alertsWanted && !waitingForHome);

  const shown = useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
  const first = data?.pages[0];
  const knownTags = first?.tags ?? [];
  const shownIds = useMemo(() => new Set(shown.map((s) => s.id)), [shown]);
  const matchingAlerts = useMemo(() => (alerts.data?.items ?? []).filter((a) => shownIds.has(a.serverId)), [alerts.data, shownIds]);
  const alertCounts: AlertCounts = alerts.data
    ? { byServer: matchingAlerts.reduce((m, a) => m.set(a.serverId, (m.get(a.serverId) ?? 0) + 1), new Map<string, number>()), capped: alerts.data.nextCursor !== null }
    : null;

  if (isPending || waitingForHome) return <p aria-busy="true">Loading fleet…</p>;
  if (error) return <p role="alert">Could not load the fleet: {error.message}</p>;

  const setFilters = (next: ViewFilters, options: { debounced?: boolean } = {}) => void url.setFilters(next, options);
  const openView = (view: ViewDto) => void url.showView(view.filters, view.id, "push");
  // Clearing must not bring the pinned view back on the next visit to this URL.
  const clear = () => void url.setFilters(clearFilters(filters), { view: pinned ? ALL_SERVERS : null });
  const total = first?.total ?? 0;
  const teamTotal = first?.teamTotal ?? 0;
  const counts = SERVER_STATUSES.flatMap((status) => (first?.byStatus[status] ? [[status, first.byStatus[status]] as const] : []));
  const columns = visibleColumns(filters);

  return (
    <section aria-labelledby="fleet-heading">
      <div className="page-head">
        <h1 id="fleet-heading">Fleet</h1>
        {can("server:write") ? (
          <div className="actions">
            <Link className="button secondary" href="/servers/import">
              Import from a config
            </Link>
            <Link className="button" href="/servers/new">
              Add server
            </Link>
          </div>
        ) : null}
      </div>
      <ViewBar
        views={views.data ?? []}
        active={active}
        modified={modified}
        missing={Boolean(activeId && views.data && !active)}
        filters={filters}
        canWrite={can("view:write")}
        onOpen={openView}
        onSaved={(view) => void url.showView(view.filters, view.id)}
      />
      <FilterBar filters={filters} knownTags={knownTags} onChange={setFilters} />
      <p className="summary" data-testid="fleet-summary">
        {total === teamTotal ? `${teamTotal} server${teamTotal === 1 ? "" : "s"}` : `${total} of ${teamTotal} servers`}
        {counts.map(([status, n]) => (
          <span key={status}>
            {" · "}
            {n} {status}
          </span>
        ))}
      </p>
      {teamTotal === 0 ? (
        <p className="empty" data-testid="empty-fleet">
          No servers in this team yet.{" "}
          {can("server:write") ? (
            <>
              <Link href="/servers/new">Add the first one</Link> or <Link href="/servers/import">import them from a config</Link>
            </>
          ) : (
            "A team admin can add them."
          )}
        </p>
      ) : total === 0 ? (
        <NoMatch teamTotal={teamTotal} filters={filters} onChange={setFilters} onClear={clear} />
      ) : (
        <>
        <FleetTable
          servers={shown}
          columns={columns}
          sort={filters.sort}
          activeTags={filters.servers?.tags ?? []}
          alertCounts={alertsWanted ? alertCounts : null}
          onSort={(sort) => setFilters(sort ? { ...filters, sort } : withoutSort(filters))}
          onTag={(tag) => setFilters({ ...filters, servers: { ...filters.servers, tags: [...(filters.servers?.tags ?? []), tag] } })}
        />
        <LoadMore shown={shown.length} total={total} hasMore={pages.hasNextPage} loading={pages.isFetchingNextPage} onLoad={() => void pages.fetchNextPage()} />
        </>
      )}
      {alertsWanted && shown.length > 0 ? (
        <MatchingAlerts
          alerts={matchingAlerts}
          capped={alerts.data?.nextCursor != null}
          loading={alerts.isPending}
          error={alerts.error?.message ?? null}
          description={describeAlertFilters(filters)}
        />
      ) : null}
      {!hasNarrowingFilters(filters) && isEmptyViewFilters(filters) && !active && can("view:write") && teamTotal > 3 ? (
        <p className="muted small">Tip: filter the fleet, then “Save as view” to keep that slice for the whole team.</p>
      ) : null}
    </section>
  );
}

function withoutSort(filters: ViewFilters): ViewFilters {
  const next = { ...filters };
  delete next.sort;
  return next;
}

function describeAlertFilters(filters: ViewFilters): string {
  const parts = describeFilters({ alerts: filters.alerts, timeRange: filters.timeRange });
  return parts.length ? `Alerts of the servers above: ${parts.join(", ")}` : "Every alert of the servers above";
}
