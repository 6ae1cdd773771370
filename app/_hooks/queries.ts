"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Page, ServerDetail, ServerSummary, SnapshotDto } from "../../lib/servers/server-dto";
import { api, ApiError } from "./api";
import type { ApiKey, AuditEvent, Invitation, Me, Member, Permission, PublicInvitation } from "./types";

export { ApiError };

export const queryKeys = {
  me: () => ["me"] as const,
  servers: () => ["servers"] as const,
  server: (id: string) => ["server", id] as const,
  snapshots: (id: string) => ["snapshots", id] as const,
  members: () => ["members"] as const,
  invitations: () => ["invitations"] as const,
  invitation: (id: string) => ["invitation", id] as const,
  keys: () => ["keys"] as const,
  audit: () => ["audit"] as const,
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

export const useServersQuery = () => useQuery({ queryKey: queryKeys.servers(), queryFn: () => api<{ items: ServerSummary[] }>("/api/v1/servers") });

export const useServerQuery = (id: string) =>
  useQuery({
    queryKey: queryKeys.server(id),
    queryFn: () => api<ServerDetail>(`/api/v1/servers/${encodeURIComponent(id)}`),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });

export const useSnapshotsQuery = (id: string) =>
  useQuery({
    queryKey: queryKeys.snapshots(id),
    queryFn: () => api<Page<SnapshotDto>>(`/api/v1/servers/${encodeURIComponent(id)}/snapshots?limit=50`),
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
    queryFn: ({ pageParam }) => api<Page<AuditEvent>>(`/api/v1/audit?limit=50${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ""}`),
    getNextPageParam: (last) => last.nextCursor,
  });
