"use client";

import { useQuery } from "@tanstack/react-query";
import type { SnapshotDiff } from "@/lib/history/diff-snapshots";
import type { ToolHistory } from "@/lib/history/tool-history";
import { api, ApiError } from "./api";
import { queryKeys } from "./queries";

export type { SnapshotDiff, ToolHistory };

/** 404s (foreign or unknown ids) are answers, not blips: never retried. */
const retryUnlessClientError = (count: number, error: Error) => !(error instanceof ApiError && error.status < 500) && count < 1;

/**
 * The diff between two snapshots. Without `to` it follows the latest snapshot (the realtime bridge
 * refetches it); with an explicit `to` both sides are fixed, so the answer never goes stale.
 */
export const useDiffQuery = (serverId: string, from: string | null, to: string | null, enabled = true) =>
  useQuery({
    queryKey: queryKeys.diff(serverId, from, to),
    queryFn: () => {
      const qs = new URLSearchParams();
      if (from) qs.set("from", from);
      if (to) qs.set("to", to);
      const query = qs.toString();
      return api<SnapshotDiff>(`/api/v1/servers/${encodeURIComponent(serverId)}/diff${query ? `?${query}` : ""}`);
    },
    staleTime: to ? Infinity : 30_000,
    enabled,
    // A new range of the same server keeps the old diff on screen (marked as loading) until it arrives.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === serverId ? previous : undefined),
    retry: retryUnlessClientError,
  });

export const useToolHistoryQuery = (serverId: string, name: string) =>
  useQuery({
    queryKey: queryKeys.toolHistory(serverId, name),
    queryFn: () => api<ToolHistory>(`/api/v1/servers/${encodeURIComponent(serverId)}/tools/${encodeURIComponent(name)}/history`),
    retry: retryUnlessClientError,
  });
