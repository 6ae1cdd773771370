"use client";

import { useQuery } from "@tanstack/react-query";
import type { Page, ServerDetail, ServerSummary, SnapshotDto } from "../../lib/servers/server-dto";

export const queryKeys = {
  servers: () => ["servers"] as const,
  server: (id: string) => ["server", id] as const,
  snapshots: (id: string) => ["snapshots", id] as const,
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok) throw new ApiError(res.status, body?.error?.message ?? `Request failed (${res.status})`);
  return body as T;
}

export const useServersQuery = () =>
  useQuery({ queryKey: queryKeys.servers(), queryFn: () => fetchJson<{ items: ServerSummary[] }>("/api/v1/servers") });

export const useServerQuery = (id: string) =>
  useQuery({ queryKey: queryKeys.server(id), queryFn: () => fetchJson<ServerDetail>(`/api/v1/servers/${encodeURIComponent(id)}`) });

export const useSnapshotsQuery = (id: string) =>
  useQuery({
    queryKey: queryKeys.snapshots(id),
    queryFn: () => fetchJson<Page<SnapshotDto>>(`/api/v1/servers/${encodeURIComponent(id)}/snapshots?limit=50`),
  });
