"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Page, SnapshotDto } from "@/lib/servers/server-dto";
import type { ContextBudgetDto } from "@/lib/tenants/context-budget";
import type { ContextBudgetReport } from "@/lib/tenants/context-budget-report";
import type { TokenPoint } from "@/app/_components/charts/TokenTrendChart";
import { api } from "./api";
import { queryKeys } from "./queries";

export type { ContextBudgetDto, ContextBudgetReport };

/** Snapshots shown in a server's token trend (the newest ones). */
const TREND_SNAPSHOTS = 100;

export const contextBudgetKey = () => ["context-budget"] as const;

/**
 * A server's context tokens per snapshot, oldest first, from the snapshot list (stored sums).
 * Under the snapshots key, so every snapshot:recorded event refetches it with the timeline.
 */
export const useTokenTrendQuery = (serverId: string) =>
  useQuery({
    queryKey: [...queryKeys.snapshots(serverId), "token-trend"] as const,
    queryFn: () => api<Page<SnapshotDto>>(`/api/v1/servers/${encodeURIComponent(serverId)}/snapshots?limit=${TREND_SNAPSHOTS}`),
    select: (page): TokenPoint[] => page.items.map((s) => ({ at: s.takenAt, tokens: s.contextTokens })).reverse(),
  });

/** The team's budget and total (GET /api/v1/team/context-budget), for one-line summaries; read on mount and focus. */
export const useContextBudgetQuery = () => useQuery({ queryKey: contextBudgetKey(), queryFn: () => api<ContextBudgetDto>("/api/v1/team/context-budget") });

/** The budget page's report (GET /api/v1/team/context-budget/report); under the budget key, so a saved budget refetches it. */
export const useContextBudgetReportQuery = () =>
  useQuery({ queryKey: [...contextBudgetKey(), "report"] as const, queryFn: () => api<ContextBudgetReport>("/api/v1/team/context-budget/report"), refetchInterval: 30_000 });

export function useUpdateContextBudget() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (budgetTokens: number | null) => api<ContextBudgetDto>("/api/v1/team/context-budget", { method: "PATCH", body: { budgetTokens } }),
    onSuccess: (dto) => {
      client.setQueryData(contextBudgetKey(), dto);
      // The form reads the saved budget from the report: no flash of the old value before it refetches.
      client.setQueryData<ContextBudgetReport>([...contextBudgetKey(), "report"], (report) => report && { ...report, budgetTokens: dto.budgetTokens });
      void client.invalidateQueries({ queryKey: [...contextBudgetKey(), "report"] });
      void client.invalidateQueries({ queryKey: queryKeys.alerts() });
    },
  });
}
