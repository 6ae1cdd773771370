"use client";

import { useQuery } from "@tanstack/react-query";
import type { CachePage } from "@/lib/cache/cache-dto";
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
