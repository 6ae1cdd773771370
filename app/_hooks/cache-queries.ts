"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { CachePage } from "../../lib/cache/cache-dto";
import { api } from "./api";

export const cacheKeys = {
  /** Every cache query: a snapshot event of any server refetches them. */
  all: () => ["cache"] as const,
  list: (serverId: string | null) => ["cache", serverId ?? "all"] as const,
};

/** The team's cache entries (GET /api/v1/cache), or one server's. */
export const useCacheQuery = (serverId: string | null = null) =>
  useQuery({
    queryKey: cacheKeys.list(serverId),
    queryFn: () => api<CachePage>(serverId ? `/api/v1/cache?serverId=${encodeURIComponent(serverId)}` : "/api/v1/cache"),
  });

/** The clock, ticking: freshness is "time left", which moves without any event. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
