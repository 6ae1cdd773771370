"use client";

import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import { READY_EVENT, SOCKET_EVENT, type RealtimeEvent } from "@/lib/realtime/events";

export type RealtimeState = { connected: boolean; lastEventAt: number | null; reconnect: () => void };

const initial: RealtimeState = { connected: false, lastEventAt: null, reconnect: () => undefined };
export const RealtimeContext = createContext<RealtimeState>(initial);
export const useRealtime = () => useContext(RealtimeContext);

type Options = {
  /** Open a socket only for a signed-in user with a team (the handshake is authenticated by the session cookie). */
  enabled: boolean;
  /** The active team: the socket is in the rooms of all the user's teams, so other teams' events are dropped here. */
  teamId: string | null;
  onEvent: (event: RealtimeEvent) => void;
  /**
   * The server has joined this socket to its rooms (first connection and every reconnection):
   * anything loaded before may have missed an event, so the caller refetches it.
   */
  onReady: () => void;
  /** The server dropped the socket for good: the session or key no longer verifies. */
  onRefused: () => void;
};

/** One socket.io connection per tab, opened afresh whenever the active team changes. */
export function useRealtimeConnection({ enabled, teamId, onEvent, onReady, onRefused }: Options): RealtimeState {
  const [state, setState] = useState<Omit<RealtimeState, "reconnect">>({ connected: false, lastEventAt: null });
  const handler = useRef({ onEvent, onReady, onRefused });
  const socketRef = useRef<Socket | null>(null);
  useEffect(() => {
    handler.current = { onEvent, onReady, onRefused };
  });

  useEffect(() => {
    if (!enabled || !teamId) return;
    const socket = io({ path: "/socket.io", withCredentials: true });
    socketRef.current = socket;
    // "connect" only opens the transport; the rooms are joined (and events heard) from READY_EVENT on.
    socket.on(READY_EVENT, () => {
      setState((s) => ({ ...s, connected: true }));
      handler.current.onReady();
    });
    socket.on("disconnect", (reason) => {
      setState((s) => ({ ...s, connected: false }));
      // A lost transport reconnects by itself (also how the server re-reads memberships); a
      // server-side disconnect means the credentials stopped verifying (signed out, expired).
      if (reason === "io server disconnect") handler.current.onRefused();
    });
    socket.on("connect_error", () => {
      if (!socket.active) handler.current.onRefused();
    });
    socket.on(SOCKET_EVENT, (event: RealtimeEvent) => {
      if (event.type !== "membership:changed" && event.tenantId !== teamId) return;
      setState((s) => ({ ...s, lastEventAt: Date.now() }));
      handler.current.onEvent(event);
    });
    return () => {
      socketRef.current = null;
      socket.close();
      setState((s) => ({ ...s, connected: false }));
    };
  }, [enabled, teamId]);

  /** A fresh handshake, so the server re-reads which team rooms this user belongs to. */
  const reconnect = useCallback(() => {
    const socket = socketRef.current;
    if (!socket) return;
    socket.disconnect();
    socket.connect();
  }, []);
  return { ...state, reconnect };
}
