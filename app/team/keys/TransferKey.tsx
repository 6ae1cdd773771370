"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ROLE_RANK } from "@/lib/auth/permissions";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useMembersQuery } from "@/app/_hooks/queries";
import type { Role } from "@/app/_hooks/types";

/**
 * Hands a key to another member (POST /api/v1/keys/{id}/transfer), so it outlives its holder's
 * membership: offered members have at least the key's role; the API checks it again.
 */
export function TransferKey({ keyId, keyName, keyRole, holder }: { keyId: string; keyName: string; keyRole: string; holder: string | null }) {
  const queryClient = useQueryClient();
  const { data } = useMembersQuery();
  const [memberId, setMemberId] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // A key of an unknown role is treated as owner-level: offered to owners only.
  const needed = ROLE_RANK[keyRole as Role] ?? ROLE_RANK.owner;
  const candidates = (data?.items ?? []).filter((m) => ROLE_RANK[m.role] >= needed && m.email !== holder);
  if (candidates.length === 0) return null;
  return (
    <details className="transfer-key">
      <summary>Transfer…</summary>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setMessage(null);
          try {
            await api(`/api/v1/keys/${keyId}/transfer`, { method: "POST", body: { memberId } });
            await queryClient.invalidateQueries({ queryKey: queryKeys.keys() });
            setMessage({ ok: true, text: "transferred" });
          } catch (e) {
            setMessage({ ok: false, text: e instanceof ApiError ? e.message : "Could not transfer the key" });
          }
        }}
      >
        <label>
          To member{" "}
          <select aria-label={`New holder of ${keyName}`} value={memberId} onChange={(e) => setMemberId(e.target.value)} required>
            <option value="">choose…</option>
            {candidates.map((m) => (
              <option key={m.id} value={m.id}>
                {m.email} ({m.role})
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" disabled={!memberId}>
          Transfer
        </button>
        {message ? <span role={message.ok ? "status" : "alert"}> {message.text}</span> : null}
      </form>
    </details>
  );
}
