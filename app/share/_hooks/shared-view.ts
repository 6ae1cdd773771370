"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { io } from "socket.io-client";
import { READY_EVENT, SHARE_SOCKET_EVENT, type ShareSocketEvent } from "@/lib/realtime/events";
import { SHARE_REFRESH_HEADER, type SharedViewDto } from "@/lib/views/view-dto";
import { ApiError } from "@/app/_hooks/api";
import type { RealtimeState } from "@/app/_hooks/realtime";

// The public share page's data and live connection. The token is the only credential: it goes
// to this site only (the API path and the socket handshake's auth payload, never a URL query),
// and no cookie is sent with the data request.

export const sharedViewKey = (token: string) => ["shared-view", token] as const;

/** Several events in a burst (a fleet re-listing) become one refetch. */
const REFETCH_DELAY_MS = 250;

async function fetchSharedView(token: string, refresh: boolean): Promise<SharedViewDto> {
  const res = await fetch(`/api/v1/share/${encodeURIComponent(token)}`, {
    headers: { Accept: "application/json", ...(refresh ? { [SHARE_REFRESH_HEADER]: "1" } : {}) },
    credentials: "omit",
    cache: "no-store",
    referrerPolicy: "no-referrer",
  });
  const body = (await res.json().catch(() => null)) as (SharedViewDto & { error?: { code?: string; message?: string } }) | null;
  if (!res.ok) throw new ApiError(res.status, body?.error?.message ?? `Request failed (${res.status})`, body?.error?.code ?? null);
  return body as SharedViewDto;
}

export const isGoneError = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * GET /api/v1/share/{token}. Only the first request of a page load counts as an access; every
 * later one (live events, focus, reconnects) is marked as a refresh.
 */
export function useSharedViewQuery(token: string, enabled: boolean) {
  const loaded = useRef(false);
  return useQuery({
    queryKey: sharedViewKey(token),
    queryFn: () => {
      const refresh = loaded.current;
      loaded.current = true;
      return fetchSharedView(token, refresh);
    },
    enabled,
    // A 404 is an answer (unknown, expired or revoked), not a blip to retry.
    retry: (failures, error) => !isGoneError(error) && failures < 1,
  });
}

/**
 * A socket authenticated by the share token. Its events only say "something on this view
 * changed": the page refetches. `onGone` fires when the server says the link was revoked (or
 * expired, or its view deleted); a refused handshake refetches, and the API's 404 says the same.
 */
export function useShareSocket(token: string, enabled: boolean, onGone: () => void): RealtimeState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<Omit<RealtimeState, "reconnect">>({ connected: false, lastEventAt: null });
  const goneRef = useRef(onGone);
  useEffect(() => {
    goneRef.current = onGone;
  });

  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refetchSoon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: sharedViewKey(token) });
      }, REFETCH_DELAY_MS);
    };
    const socket = io({ path: "/socket.io", auth: { shareToken: token }, withCredentials: false });
    // Live from READY_EVENT (the link's room joined), not from "connect": an event in between is lost.
    socket.on(READY_EVENT, () => {
      setState((s) => ({ ...s, connected: true }));
      // Whatever changed between the page load (or a lost connection) and now; a fetch still in
      // flight is restarted, since it may have read the database before the join.
      void queryClient.invalidateQueries({ queryKey: sharedViewKey(token) });
    });
    socket.on("disconnect", (reason) => {
      setState((s) => ({ ...s, connected: false }));
      if (reason === "io server disconnect") refetchSoon(); // dropped for good: the API says why
    });
    socket.on("connect_error", () => {
      if (!socket.active) refetchSoon(); // refused: a 404 from the API then shows the gone state
    });
    socket.on(SHARE_SOCKET_EVENT, (event: ShareSocketEvent) => {
      setState((s) => ({ ...s, lastEventAt: Date.now() }));
      if (event.type === "share:revoked") goneRef.current();
      else refetchSoon();
    });
    return () => {
      clearTimeout(timer);
      socket.close();
      setState((s) => ({ ...s, connected: false }));
    };
  }, [enabled, token, queryClient]);

  const reconnect = useCallback(() => undefined, []);
  return { ...state, reconnect };
}
