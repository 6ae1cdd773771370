"use client";

import { createContext, useContext, useEffect, useRef, useState } from "react";
import { io } from "socket.io-client";
import { SOCKET_EVENT, type RealtimeEvent } from "../../lib/realtime/events";

export type RealtimeState = { connected: boolean; reconnects: number; lastEventAt: number | null };

export const RealtimeContext = createContext<RealtimeState>({ connected: false, reconnects: 0, lastEventAt: null });
export const useRealtime = () => useContext(RealtimeContext);

/** One socket.io connection per tab; the server decides which tenant room it joins. */
export function useRealtimeConnection(onEvent: (event: RealtimeEvent) => void): RealtimeState {
  const [state, setState] = useState<RealtimeState>({ connected: false, reconnects: 0, lastEventAt: null });
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const socket = io({ path: "/socket.io" });
    let connects = 0;
    socket.on("connect", () => {
      setState((s) => ({ ...s, connected: true, reconnects: connects++ > 0 ? s.reconnects + 1 : s.reconnects }));
    });
    socket.on("disconnect", () => setState((s) => ({ ...s, connected: false })));
    socket.on(SOCKET_EVENT, (event: RealtimeEvent) => {
      setState((s) => ({ ...s, lastEventAt: Date.now() }));
      handler.current(event);
    });
    return () => {
      socket.close();
    };
  }, []);
  return state;
}
