"use client";

import { useQuery } from "@tanstack/react-query";
import type { AlertPage } from "@/lib/alerts/alert-dto";
import { resolveRange, type ViewFilters } from "@/lib/views/view-input";
import type { ShareLinkDto, ViewDto } from "@/lib/views/view-dto";
import { api, ApiError } from "./api";
import { queryKeys } from "./queries";

export type { ShareLinkDto, ViewDto };

const retryUnlessClientError = (count: number, error: Error) => !(error instanceof ApiError && error.status < 500) && count < 1;

/** The team's views, pinned (the team's home) first, then by name. */
export const useViewsQuery = () => useQuery({ queryKey: queryKeys.views(), queryFn: async () => (await api<{ items: ViewDto[] }>("/api/v1/views")).items });

export const useViewQuery = (id: string) =>
  useQuery({ queryKey: queryKeys.view(id), queryFn: () => api<ViewDto>(`/api/v1/views/${encodeURIComponent(id)}`), retry: retryUnlessClientError });

/** The view's share links, newest first (never a token). */
export const useShareLinksQuery = (viewId: string) =>
  useQuery({
    queryKey: queryKeys.shareLinks(viewId),
    queryFn: async () => (await api<{ items: ShareLinkDto[] }>(`/api/v1/views/${encodeURIComponent(viewId)}/shares`)).items,
    retry: retryUnlessClientError,
  });

export const MATCHING_ALERTS_LIMIT = 200;

/**
 * The newest alerts of any status matching a view's alert kinds, severities and time range (the
 * API filters those); the caller keeps the ones of the servers on screen. A relative range is
 * resolved when fetched, and refetched with the alert lists on alert:changed.
 */
export function useMatchingAlertsQuery(filters: ViewFilters, enabled: boolean) {
  const kinds = filters.alerts?.kinds?.join(",") ?? "";
  const severities = filters.alerts?.severities?.join(",") ?? "";
  const range = typeof filters.timeRange === "string" ? filters.timeRange : JSON.stringify(filters.timeRange ?? null);
  return useQuery({
    queryKey: queryKeys.alertList({ view: "matching", kinds, severities, range }),
    queryFn: () => {
      const qs = new URLSearchParams({ limit: String(MATCHING_ALERTS_LIMIT) });
      if (kinds) qs.set("kind", kinds);
      if (severities) qs.set("severity", severities);
      const { from, to } = resolveRange(filters.timeRange);
      if (from) qs.set("from", from.toISOString());
      if (to) qs.set("to", to.toISOString());
      return api<AlertPage>(`/api/v1/alerts?${qs.toString()}`);
    },
    enabled,
    retry: retryUnlessClientError,
  });
}
