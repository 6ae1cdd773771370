"use client";

import { useQuery } from "@tanstack/react-query";
import type { Overview } from "../../lib/overview/overview-dto";
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
