"use client";

import { useQuery } from "@tanstack/react-query";
import type { IdentityProbeState } from "../../lib/identity-probes/types";
import { api } from "./api";

/** One server's identity probes (GET /api/v1/servers/{id}/identity-probes). Probes are rare: a slow refetch is enough. */
export const useIdentityProbesQuery = (serverId: string) =>
  useQuery({
    queryKey: ["identity-probes", serverId] as const,
    queryFn: () => api<IdentityProbeState>(`/api/v1/servers/${encodeURIComponent(serverId)}/identity-probes`),
    refetchInterval: 30_000,
  });
