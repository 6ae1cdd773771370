"use client";

import { QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { RealtimeContext, useRealtimeConnection } from "./_hooks/realtime";
import { queryKeys } from "./_hooks/queries";
import type { RealtimeEvent } from "../lib/realtime/events";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 } } }),
  );
  return (
    <QueryClientProvider client={client}>
      <RealtimeBridge>{children}</RealtimeBridge>
    </QueryClientProvider>
  );
}

/** Socket events are hints: each one names what to refetch; the data itself comes from the API. */
function RealtimeBridge({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const state = useRealtimeConnection((event: RealtimeEvent) => {
    if (!("serverId" in event)) {
      void queryClient.invalidateQueries();
      return;
    }
    void queryClient.invalidateQueries({ queryKey: queryKeys.servers() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.server(event.serverId) });
    if (event.type === "snapshot:recorded" || event.type === "snapshot:confirmed") {
      void queryClient.invalidateQueries({ queryKey: queryKeys.snapshots(event.serverId) });
    }
  });
  // After a reconnect we may have missed events: refetch everything on screen.
  useEffect(() => {
    if (state.connected && state.reconnects > 0) void queryClient.invalidateQueries();
  }, [state.connected, state.reconnects, queryClient]);
  return <RealtimeContext.Provider value={state}>{children}</RealtimeContext.Provider>;
}
