"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { CollisionPage } from "@/lib/collisions/collision-dto";
import { MAX_SEARCH_QUERY, type SearchResult } from "@/lib/search/search-dto";
import { api } from "./api";

export const finderKeys = {
  // Under "alerts": every alert:changed event (a collision alert opened, moved or resolved) refetches it.
  collisions: () => ["alerts", "collisions"] as const,
  search: (q: string) => ["search", q] as const,
};

export const useCollisionsQuery = () =>
  useInfiniteQuery({
    queryKey: finderKeys.collisions(),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api<CollisionPage>(`/api/v1/collisions?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`),
    getNextPageParam: (last) => last.nextCursor,
  });

/** The palette's search; nothing is asked for an empty or oversized query (the API would answer 400). */
export const useSearchQuery = (q: string) => {
  const query = q.trim();
  return useQuery<SearchResult>({
    queryKey: finderKeys.search(query),
    // A newer keystroke cancels the older request (react-query's signal).
    queryFn: ({ signal }) => api<SearchResult>(`/api/v1/search?q=${encodeURIComponent(query)}`, { signal }),
    enabled: query.length > 0 && query.length <= MAX_SEARCH_QUERY,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
};
