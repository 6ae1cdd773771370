"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { api, ApiError } from "@/app/_hooks/api";
import { useRealtime } from "@/app/_hooks/realtime";
import type { Me } from "@/app/_hooks/types";

/** The active team, switchable among the user's teams; a switch starts from a clean cache. */
export function TeamSwitcher({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const { reconnect } = useRealtime();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!me.team) return null;

  async function switchTo(teamId: string) {
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/teams/active", { method: "POST", body: { teamId } });
      // A server page of the previous team means nothing in the new one.
      if (pathname.startsWith("/servers/")) router.push("/");
      await queryClient.resetQueries();
      reconnect();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Could not switch team");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="team-switcher">
      <label htmlFor="team-switcher">Team</label>
      <select id="team-switcher" value={me.team.id} disabled={busy} onChange={(e) => void switchTo(e.target.value)}>
        {me.teams.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} · {t.role}
          </option>
        ))}
      </select>
      {error ? (
        <span role="alert" className="topbar-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
