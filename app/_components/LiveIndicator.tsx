"use client";

import { useRealtime } from "@/app/_hooks/realtime";

export function LiveIndicator() {
  const { connected } = useRealtime();
  return (
    <span className={`live ${connected ? "on" : "off"}`} data-testid="live-indicator" role="status" aria-live="polite">
      {connected ? "live" : "offline"}
    </span>
  );
}
