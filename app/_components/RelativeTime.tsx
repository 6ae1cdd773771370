"use client";

import { useNow } from "@/app/_hooks/use-now";

function span(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} days`;
}

function describe(deltaMs: number): string {
  if (Math.abs(deltaMs) < 5_000) return "just now";
  return deltaMs > 0 ? `${span(deltaMs)} ago` : `in ${span(-deltaMs)}`;
}

/** "3 min ago" / "in 7 days", kept current; the exact time is in the tooltip. */
export function RelativeTime({ iso, never = "never" }: { iso: string | null; never?: string }) {
  const now = useNow(10_000);
  if (!iso) return <span className="muted">{never}</span>;
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {describe(now - Date.parse(iso))}
    </time>
  );
}
