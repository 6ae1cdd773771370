"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Page, ServerDetail, ServerSummary, SnapshotDto } from "@/lib/servers/server-dto";
import { api, ApiError } from "./api";
import type { ApiKey, AuditEvent, Invitation, Me, Member, Permission, PublicInvitation } from "./types";

export { ApiError };

export const queryKeys = {
  me: () => ["me"] as const,
  servers: () => ["servers"] as const,
  server: (id: string) => ["server", id] as const,
  snapshots: (id: string) => ["snapshots", id] as const,
  /** A diff whose `to` is "latest" moves with every new snapshot; one with an explicit `to` never changes. */
  diff: (id: string, from: string | null, to: string | null) => ["diff", id, to ?? "latest", from ?? "previous"] as const,
  latestDiffs: (id: string) => ["diff", id, "latest"] as const,
  toolHistory: (id: string, name: string) => ["tool-history", id, name] as const,
  toolHistories: (id: string) => ["tool-history", id] as const,
  members: () => ["members"] as const,
  invitations: () => ["invitations"] as const,
  invitation: (id: string) => ["invitation", id] as const,
  keys: () => ["keys"] as const,
  audit: () => ["audit"] as const,
  /** Every alert list and count: one alert:changed event refetches them all. */
  alerts: () => ["alerts"] as const,
  alertList: (filters: Record<string, string>) => ["alerts", "list", filters] as const,
  alertCount: (serverId: string | null) => ["alerts", "count", serverId ?? "all"] as const,
  alert: (id: string) => ["alert", id] as const,
  /** The team's saved views (list and each one); share links hang below their view. */
  views: () => ["views"] as const,
  view: (id: string) => ["views", id] as const,
  shareLinks: (viewId: string) => ["views", viewId, "shares"] as const,
  webhooks: () => ["webhooks"] as const,
  deliveries: (webhookId: string) => ["webhooks", webhookId, "deliveries"] as const,
};

/** Who is signed in, in which team, with which permissions. A 401 is an answer, not a failure. */
export const useMeQuery = () =>
  useQuery({
    queryKey: queryKeys.me(),
    queryFn: async () => {
      try {
        return await api<Me>("/api/v1/me");
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });

/** The signed-in user's permission check; false while unknown. */
export function useCan(): (permission: Permission) => boolean {
  const { data } = useMeQuery();
  return (permission) => Boolean(data?.permissions.includes(permission));
}

/** The first servers by name (pickers such as the alert filter); the fleet page pages through all of them. */
export const useServersQuery = () => useQuery({ queryKey: [...queryKeys.servers(), "first"], queryFn: () => api<{ items: ServerSummary[] }>("/api/v1/servers?limit=500") });

export const useServerQuery = (id: string) =>
  useQuery({
    queryKey: queryKeys.server(id),
    queryFn: () => api<ServerDetail>(`/api/v1/servers/${encodeURIComponent(id)}`),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });

/** The timeline, newest first, 50 snapshots a page ("Load older" fetches the next). */
export const useSnapshotsQuery = (id: string) =>
  useInfiniteQuery({
    queryKey: queryKeys.snapshots(id),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api<Page<SnapshotDto>>(`/api/v1/servers/${encodeURIComponent(id)}/snapshots?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`),
    getNextPageParam: (last) => last.nextCursor,
  });

export const useMembersQuery = () => useQuery({ queryKey: queryKeys.members(), queryFn: () => api<{ items: Member[] }>("/api/v1/members") });

export const useInvitationsQuery = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.invitations(), queryFn: () => api<{ items: Invitation[] }>("/api/v1/invitations"), enabled });

export const usePublicInvitationQuery = (id: string) =>
  useQuery({
    queryKey: queryKeys.invitation(id),
    queryFn: () => api<PublicInvitation>(`/api/v1/invitations/${encodeURIComponent(id)}`),
    retry: false,
  });

export const useKeysQuery = () => useQuery({ queryKey: queryKeys.keys(), queryFn: () => api<{ items: ApiKey[] }>("/api/v1/keys") });

export const useAuditQuery = () =>
  useInfiniteQuery({
    queryKey: queryKeys.audit(),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api<Page<AuditEvent>>(`/api/v1/audit?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`),
    getNextPageParam: (last) => last.nextCursor,
  });
