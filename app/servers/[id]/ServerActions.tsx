"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { ServerSummary } from "@/lib/servers/server-dto";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useCan } from "@/app/_hooks/queries";
import { FlashMessage, type Flash } from "@/app/_components/FlashMessage";
import { FLEET_PATH } from "@/app/_lib/links";

/** Edit, refresh and delete — each shown only to roles that may use it (the server checks anyway). */
export function ServerActions({ server }: { server: ServerSummary }) {
  const can = useCan();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<Flash | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [authorizing, setAuthorizing] = useState(false);
  const canWrite = can("server:write");
  const canRefresh = can("server:refresh");
  // Back from the provider (the callback redirects here with ?oauth=authorized).
  useEffect(() => {
    if (new URLSearchParams(window.location.search).get("oauth") === "authorized") setMessage({ kind: "ok", text: "Authorized: the worker lists the server now." });
  }, []);
  if (!canWrite && !canRefresh) return null;
  const needsAuthorize = server.auth?.grant === "authorization_code" && (server.auth.status !== "authorized" || server.status === "auth_required");

  /** Interactive OAuth: the API answers with the provider's URL and the browser goes there. */
  async function authorize() {
    setAuthorizing(true);
    setMessage(null);
    try {
      const { authorizationUrl } = await api<{ authorizationUrl: string }>(`/api/v1/servers/${server.id}/oauth/authorize`, { method: "POST", body: {} });
      window.location.assign(authorizationUrl);
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "Could not start the authorization" });
      setAuthorizing(false);
    }
  }

  async function refresh() {
    setRefreshing(true);
    setMessage(null);
    try {
      await api(`/api/v1/servers/${server.id}/refresh`, { method: "POST", body: {} });
      setMessage({ kind: "ok", text: "Refresh requested: the worker re-lists the tools now." });
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "Could not request a refresh" });
    } finally {
      setRefreshing(false);
    }
  }

  async function remove() {
    setMessage(null);
    try {
      await api(`/api/v1/servers/${server.id}`, { method: "DELETE" });
      queryClient.removeQueries({ queryKey: queryKeys.server(server.id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.servers() });
      router.push(FLEET_PATH);
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "Could not delete the server" });
    }
  }

  return (
    <div className="server-actions">
      {canWrite && needsAuthorize ? (
        <button type="button" className="button" onClick={() => void authorize()} disabled={authorizing} title={server.auth?.statusReason ?? "Sign in to this server with OAuth"}>
          {authorizing ? "Opening the provider…" : "Authorize"}
        </button>
      ) : null}
      {canRefresh ? (
        <button type="button" className="button secondary" onClick={() => void refresh()} disabled={refreshing || !server.enabled} title={server.enabled ? undefined : "Paused servers are not listed"}>
          {refreshing ? "Requesting…" : "Refresh now"}
        </button>
      ) : null}
      {canWrite ? (
        <>
          <Link className="button secondary" href={`/servers/${server.id}/edit`}>
            Edit
          </Link>
          <ConfirmButton label="Delete" question={`Delete ${server.name} and all its history?`} confirmLabel="Yes, delete" onConfirm={remove} small={false} />
        </>
      ) : null}
      <FlashMessage message={message} as="p" />
    </div>
  );
}
