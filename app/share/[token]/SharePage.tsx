"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { LiveIndicator } from "@/app/_components/LiveIndicator";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { RealtimeContext } from "@/app/_hooks/realtime";
import { ShareGone } from "@/app/share/_components/ShareGone";
import { SharedAlerts } from "@/app/share/_components/SharedAlerts";
import { SharedFleetTable } from "@/app/share/_components/SharedFleetTable";
import { isGoneError, sharedViewKey, useShareSocket, useSharedViewQuery } from "@/app/share/_hooks/shared-view";

/**
 * A team's view as someone outside the team sees it: read-only, live, and gone the moment the
 * link is revoked (the socket says so; a reload gets the API's 404).
 */
export function SharePage({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const [revoked, setRevoked] = useState(false);
  const query = useSharedViewQuery(token, !revoked);
  const gone = revoked || isGoneError(query.error);
  const onGone = useCallback(() => {
    setRevoked(true);
    // Nothing of the view stays in memory once the link is dead.
    queryClient.removeQueries({ queryKey: sharedViewKey(token) });
  }, [queryClient, token]);
  const live = useShareSocket(token, !gone && query.data !== undefined, onGone);

  if (gone) return <ShareGone />;
  if (query.isPending) return <p aria-busy="true">Loading the shared view…</p>;
  if (query.error) {
    return (
      <p role="alert">
        Could not load this shared view: {query.error.message}{" "}
        <button type="button" className="button small" onClick={() => void query.refetch()}>
          Try again
        </button>
      </p>
    );
  }
  const { view, servers, alerts, generatedAt } = query.data;
  return (
    <RealtimeContext.Provider value={live}>
      <section aria-labelledby="share-heading" data-testid="shared-view">
        <div className="page-head">
          <h1 id="share-heading">
            <VisibleText text={view.name} />
          </h1>
          <LiveIndicator />
        </div>
        <p className="summary">
          A read-only view shared from Toolwatch · {servers.length} server{servers.length === 1 ? "" : "s"} · {alerts.length} alert
          {alerts.length === 1 ? "" : "s"} · updated <RelativeTime iso={generatedAt} />
        </p>
        <SharedFleetTable servers={servers} />
        <h2>Alerts</h2>
        <SharedAlerts alerts={alerts} servers={servers} />
      </section>
    </RealtimeContext.Provider>
  );
}
