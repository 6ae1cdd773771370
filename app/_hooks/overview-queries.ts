"use client";

import { useQuery } from "@tanstack/react-query";
import type { Overview } from "@/lib/overview/overview-dto";
import type { ContextBudgetReport } from "@/lib/tenants/context-budget-report";
import { api } from "./api";
import { queryKeys } from "./queries";

export type { Overview };

/** The browser's own time zone: the chart's days are the reader's days. */
const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * GET /api/v1/overview. Its key sits under the fleet's, so every event that refetches the fleet
 * (snapshots, statuses, server edits, alerts: app/providers.tsx) refetches it too.
 */
export const useOverviewQuery = (days = 14) => {
  const tz = localTimeZone();
  return useQuery({
    queryKey: [...queryKeys.servers(), "overview", days, tz] as const,
    queryFn: () => api<Overview>(`/api/v1/overview?${new URLSearchParams({ days: String(days), tz }).toString()}`),
  });
};

/**
 * The team's context tokens per day for the overview's token chart (the budget page's report,
 * without its server table). Under the fleet's key like the overview, so a change that adds a
 * tool moves the chart's last point without a reload.
 */
export const useOverviewTokenTrendQuery = (days = 14) =>
  useQuery({
    queryKey: [...queryKeys.servers(), "overview-token-trend", days] as const,
    queryFn: () => api<ContextBudgetReport>(`/api/v1/team/context-budget/report?days=${days}&top=1`),
  });
