"use client";

import type { CacheEntryDto } from "@/lib/cache/cache-dto";

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60 ? `${s % 60}s` : ""}`.trim();
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return m ? `${h} h ${m} min` : `${h} h`;
}

export const ttlText = (ttlMs: number | null) => (ttlMs === null ? "none sent (stale at once)" : ttlMs === 0 ? "0 (stale at once)" : duration(ttlMs));

/** "fresh · 4 min 10s left" or "stale since 2 min" (or why: invalidated by list_changed), against the ticking clock. */
export function CacheFreshness({ entry, now }: { entry: CacheEntryDto; now: number }) {
  const left = Date.parse(entry.expiresAt) - now;
  if (entry.invalidatedAt) {
    return (
      <span className="badge cache-stale" title={`invalidated ${new Date(entry.invalidatedAt).toLocaleString()}`}>
        stale · {entry.invalidatedBy === "list_changed" ? "list_changed" : (entry.invalidatedBy ?? "invalidated")}
      </span>
    );
  }
  if (left > 0) {
    return (
      <span className="badge cache-fresh" data-testid="cache-fresh" title={`fresh until ${new Date(entry.expiresAt).toLocaleString()}`}>
        fresh · {duration(left)} left
      </span>
    );
  }
  return (
    <span className="badge cache-stale" title={`expired ${new Date(entry.expiresAt).toLocaleString()}`}>
      stale{entry.ttlMs ? ` · for ${duration(-left)}` : ""}
    </span>
  );
}

export const scopeText = (entry: Pick<CacheEntryDto, "scope" | "shared">) =>
  entry.shared ? "public · shared" : entry.scope === "public" ? "public · this team (fetched with credentials)" : entry.scope === "private" ? "private · this team" : "no hint · this team";

export const hitRateText = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 100)}%`);
