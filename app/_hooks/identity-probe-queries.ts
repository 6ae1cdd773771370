"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TeamProbeSettingsDto } from "@/lib/identity-probes/probe-settings";
import type { ServerProbeSettingsPatch, TeamProbeSettingsPatch } from "@/lib/identity-probes/settings-schema";
import type { IdentityProbeState } from "@/lib/identity-probes/types";
import { api } from "./api";

const probesKey = (serverId: string) => ["identity-probes", serverId] as const;
const teamKey = ["identity-probes", "team"] as const;

/** One server's identity probes (GET /api/v1/servers/{id}/identity-probes). Probes are rare: a slow refetch is enough. */
export const useIdentityProbesQuery = (serverId: string) =>
  useQuery({
    queryKey: probesKey(serverId),
    queryFn: () => api<IdentityProbeState>(`/api/v1/servers/${encodeURIComponent(serverId)}/identity-probes`),
    refetchInterval: 30_000,
  });

/** The team's identity-probe defaults (GET /api/v1/team/identity-probes). */
export const useTeamProbeSettingsQuery = () => useQuery({ queryKey: teamKey, queryFn: () => api<TeamProbeSettingsDto>("/api/v1/team/identity-probes") });

/** Saves the team's defaults; every server's probe state is refetched (its effective settings change). */
export function useSaveTeamProbeSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: TeamProbeSettingsPatch) => api<TeamProbeSettingsDto>("/api/v1/team/identity-probes", { method: "PATCH", body: patch }),
    onSuccess: (saved) => {
      client.setQueryData(teamKey, saved);
      void client.invalidateQueries({ queryKey: ["identity-probes"] });
    },
  });
}

/** Saves one server's override through PATCH /servers/{id} (audited as a server edit). */
export function useSaveServerProbeSettings(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: ServerProbeSettingsPatch) => api<unknown>(`/api/v1/servers/${encodeURIComponent(serverId)}`, { method: "PATCH", body: { identityProbes: patch } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: probesKey(serverId) }),
  });
}
