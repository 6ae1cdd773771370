"use client";

import Link from "next/link";
import { ActivityChart } from "@/app/_components/overview/ActivityChart";
import { LatestFeed } from "@/app/_components/overview/LatestFeed";
import { OverviewCards } from "@/app/_components/overview/OverviewCards";
import { TokenTrendCard } from "@/app/_components/overview/TokenTrendCard";
import { useOverviewQuery } from "@/app/_hooks/overview-queries";
import { useCan } from "@/app/_hooks/queries";
import { FLEET_PATH } from "@/app/_lib/links";

/**
 * The team at a glance: counts, a chart of the last two weeks and the latest changes and alerts.
 * Everything comes from GET /api/v1/overview and moves without a reload: each realtime event of
 * the team refetches it (app/providers.tsx).
 */
export function OverviewPage() {
  const { data, error, isPending } = useOverviewQuery();
  const can = useCan();
  if (isPending) return <p aria-busy="true">Loading the overview…</p>;
  if (error) return <p role="alert">Could not load the overview: {error.message}</p>;
  return (
    <section aria-labelledby="overview-heading">
      <div className="page-head">
        <h1 id="overview-heading">Overview</h1>
        <div className="actions">
          <Link className="button secondary" href={FLEET_PATH}>
            Open the fleet
          </Link>
        </div>
      </div>
      {data.servers.total === 0 ? (
        <div className="empty" data-testid="overview-empty">
          <p>
            <strong>No servers in this team yet.</strong>
          </p>
          {can("server:write") ? (
            <p>
              <Link className="button" href="/servers/new">
                Add a server
              </Link>{" "}
              or <Link href="/servers/import">import them from an MCP client config</Link> (Claude, Cursor, VS Code…). Their tools, changes and alerts
              show up here.
            </p>
          ) : (
            <p>A team admin can add them; this page fills in as soon as they do.</p>
          )}
        </div>
      ) : null}
      <OverviewCards overview={data} />
      <div className="overview-charts">
        <ActivityChart timeline={data.timeline} />
        <TokenTrendCard />
      </div>
      <LatestFeed changes={data.latestChanges} alerts={data.latestAlerts} />
    </section>
  );
}
