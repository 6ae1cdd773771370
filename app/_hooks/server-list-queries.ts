"use client";

import { useInfiniteQuery, useQuery, type keepPreviousData } from "@tanstack/react-query";
import type { FleetServer, Page } from "@/lib/servers/server-dto";
import type { ServerPageCounts } from "@/lib/servers/server-list-query";
import type { ViewFilters } from "@/lib/views/view-input";
import { api } from "./api";
import { queryKeys } from "./queries";

export type ServerPageDto = Page<FleetServer> & ServerPageCounts;

/** Servers per request: enough to fill a screen or two; the rest come as the user scrolls. */
export const SERVER_PAGE_SIZE = 100;

/** A view's server filters and sort as GET /api/v1/servers parameters (the API filters, sorts and counts). */
export function serverListParams(filters: ViewFilters): URLSearchParams {
  const f = filters.servers ?? {};
  const qs = new URLSearchParams();
  if (f.tags?.length) qs.set("tag", f.tags.join(","));
  if (f.statuses?.length) qs.set("status", f.statuses.join(","));
  if (f.transports?.length) qs.set("transport", f.transports.join(","));
  if (f.query) qs.set("q", f.query);
  if (filters.sort) {
    qs.set("sort", filters.sort.by);
    qs.set("dir", filters.sort.dir);
  }
  return qs;
}

/** The fleet as pages of SERVER_PAGE_SIZE in the view's order; every page carries the filtered totals. */
export function useServerPagesQuery(filters: ViewFilters, enabled = true, placeholderData?: typeof keepPreviousData) {
  const params = serverListParams(filters).toString();
  return useInfiniteQuery({
    queryKey: [...queryKeys.servers(), "pages", params] as const,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const qs = new URLSearchParams(params);
      qs.set("limit", String(SERVER_PAGE_SIZE));
      if (pageParam) qs.set("cursor", pageParam);
      return api<ServerPageDto>(`/api/v1/servers?${qs.toString()}`);
    },
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    placeholderData,
  });
}

/** How many servers some filters match (one row fetched; the API counts the rest). */
export function useServerCountQuery(filters: ViewFilters, enabled = true) {
  const params = serverListParams({ servers: filters.servers });
  params.set("limit", "1");
  return useQuery({
    queryKey: [...queryKeys.servers(), "count", params.toString()] as const,
    queryFn: async () => (await api<ServerPageDto>(`/api/v1/servers?${params.toString()}`)).total,
    enabled,
  });
}
