"use client";

import { QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { RealtimeEvent } from "@/lib/realtime/events";
import { queryKeys, useMeQuery } from "./_hooks/queries";
import { cacheKeys } from "./_hooks/cache-queries";
import { RealtimeContext, useRealtimeConnection } from "./_hooks/realtime";
import { AlertToastProvider, useAlertOpened } from "./_components/finder/AlertToasts";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 } } }),
  );
  return (
    <NuqsAdapter>
      <QueryClientProvider client={client}>
        <AlertToastProvider>
          <RealtimeBridge>{children}</RealtimeBridge>
        </AlertToastProvider>
      </QueryClientProvider>
    </NuqsAdapter>
  );
}

/** Socket events are hints: each one names what to refetch; the data itself comes from the API. */
function RealtimeBridge({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data: me } = useMeQuery();
  const invalidateFleet = useThrottledInvalidate(queryKeys.servers(), FLEET_REFETCH_MS);
  // A sweep opens alerts by the hundred: the lists and counts refetch at most once a second
  // (first event at once, the last one of a burst after it), like the fleet.
  const invalidateAlerts = useThrottledInvalidate(queryKeys.alerts(), FLEET_REFETCH_MS);
  const alertOpened = useAlertOpened();
  const state = useRealtimeConnection({
    enabled: Boolean(me?.user),
    teamId: me?.team?.id ?? null,
    onEvent: (event: RealtimeEvent) => {
      if (event.type === "membership:changed") {
        // Someone joined or left (maybe us): who we are, our teams and the member list may differ.
        void queryClient.invalidateQueries({ queryKey: queryKeys.me() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.members() });
        return;
      }
      if (event.type === "alert:changed") {
        // Opened, updated, decided or resolved: every list and count, and that alert's page; the
        // fleet rows and the overview count open alerts too.
        invalidateAlerts();
        void queryClient.invalidateQueries({ queryKey: queryKeys.alert(event.alertId) });
        if (event.opened) alertOpened(event.alertId);
        invalidateFleet();
        return;
      }
      if (event.type === "view:changed" || event.type === "share:revoked") {
        // A view was created, edited, pinned or deleted, or a share link made or revoked: the
        // views list, that view and its links (all under the "views" key).
        void queryClient.invalidateQueries({ queryKey: queryKeys.views() });
        return;
      }
      invalidateFleet();
      void queryClient.invalidateQueries({ queryKey: queryKeys.server(event.serverId) });
      if (event.type === "snapshot:recorded" || event.type === "snapshot:confirmed") {
        void queryClient.invalidateQueries({ queryKey: queryKeys.snapshots(event.serverId) });
        // Tool pages show last-seen times and counts, which a confirmation also moves.
        void queryClient.invalidateQueries({ queryKey: queryKeys.toolHistories(event.serverId) });
        // Every listing is a cache hit, miss or refresh: counters and freshness moved.
        void queryClient.invalidateQueries({ queryKey: cacheKeys.all() });
      }
      // Only diffs that follow the latest snapshot move; a diff between two fixed snapshots never does.
      if (event.type === "snapshot:recorded") void queryClient.invalidateQueries({ queryKey: queryKeys.latestDiffs(event.serverId) });
    },
    // Whatever was loaded before the socket's rooms were joined (the page's first fetches, or
    // everything during a lost connection) may have missed an event: refetch what is on screen.
    // A fetch still in flight is restarted, since it may have read the database before the join.
    onReady: () => void queryClient.invalidateQueries(),
    // Signed out elsewhere or the session expired: /api/v1/me now answers 401 and the shell sends us to /login.
    onRefused: () => void queryClient.invalidateQueries({ queryKey: queryKeys.me() }),
  });
  // A different active team (switched, created, joined, or removed from the old one): nothing
  // cached for the previous team may stay on screen.
  const teamId = me?.team?.id ?? null;
  const previousTeam = useRef(teamId);
  useEffect(() => {
    if (previousTeam.current === teamId) return;
    const hadTeam = previousTeam.current !== null;
    previousTeam.current = teamId;
    if (hadTeam) void queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me()[0] });
  }, [teamId, queryClient]);
  return <RealtimeContext.Provider value={state}>{children}</RealtimeContext.Provider>;
}

// A sweep of a large fleet sends an event per server; refetching every loaded page of the fleet
// list for each would be a storm. The first event refetches at once, the rest at most once a second.
const FLEET_REFETCH_MS = 1_000;

function useThrottledInvalidate(queryKey: readonly unknown[], ms: number): () => void {
  const queryClient = useQueryClient();
  const state = useRef<{ timer: ReturnType<typeof setTimeout> | null; pending: boolean }>({ timer: null, pending: false });
  const key = useRef(queryKey);
  useEffect(() => () => {
    if (state.current.timer) clearTimeout(state.current.timer);
  }, []);
  return useRef(() => {
    const s = state.current;
    if (s.timer) {
      s.pending = true;
      return;
    }
    void queryClient.invalidateQueries({ queryKey: key.current });
    const rearm = () => {
      s.timer = setTimeout(() => {
        s.timer = null;
        if (s.pending) {
          s.pending = false;
          void queryClient.invalidateQueries({ queryKey: key.current });
          rearm();
        }
      }, ms);
    };
    rearm();
  }).current;
}
