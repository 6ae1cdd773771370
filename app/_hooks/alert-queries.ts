"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { AlertDetail, AlertPage, AlertSummary } from "@/lib/alerts/alert-dto";
import { api, ApiError } from "./api";
import { queryKeys } from "./queries";

export type { AlertDetail, AlertPage, AlertSummary };

/** The inbox's filters as they appear in its URL (absent = no filter; status absent = open and acknowledged). */
export type AlertFilters = { status?: string; severity?: string; kind?: string; serverId?: string };

/** "All" in the status picker: no status filter at all. */
export const ALL_STATUSES = "all";
export const ACTIVE_STATUSES = "open,acknowledged";

const retryUnlessClientError = (count: number, error: Error) => !(error instanceof ApiError && error.status < 500) && count < 1;

function listUrl(filters: AlertFilters, limit: number, cursor: string | null): string {
  const qs = new URLSearchParams();
  const status = filters.status ?? ACTIVE_STATUSES;
  if (status !== ALL_STATUSES) qs.set("status", status);
  if (filters.severity) qs.set("severity", filters.severity);
  if (filters.kind) qs.set("kind", filters.kind);
  if (filters.serverId) qs.set("serverId", filters.serverId);
  qs.set("limit", String(limit));
  if (cursor) qs.set("cursor", cursor);
  return `/api/v1/alerts?${qs.toString()}`;
}

/** The inbox, newest first, 50 a page ("Load more" fetches the next); refetched on alert:changed. */
export const useAlertsQuery = (filters: AlertFilters) =>
  useInfiniteQuery({
    queryKey: queryKeys.alertList(filters as Record<string, string>),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api<AlertPage>(listUrl(filters, 50, pageParam)),
    getNextPageParam: (last) => last.nextCursor,
    retry: retryUnlessClientError,
  });

const COUNT_CAP = 100;

/** How many alerts are open (for the nav badge and the server page); `capped`: at least that many. */
export const useOpenAlertCount = (serverId: string | null, enabled = true) =>
  useQuery({
    queryKey: queryKeys.alertCount(serverId),
    queryFn: async () => {
      const page = await api<AlertPage>(listUrl({ status: "open", ...(serverId ? { serverId } : {}) }, COUNT_CAP, null));
      return { count: page.items.length, capped: page.nextCursor !== null };
    },
    enabled,
    staleTime: 30_000,
  });

export const useAlertQuery = (id: string) =>
  useQuery({
    queryKey: queryKeys.alert(id),
    queryFn: () => api<AlertDetail>(`/api/v1/alerts/${encodeURIComponent(id)}`),
    retry: retryUnlessClientError,
  });
