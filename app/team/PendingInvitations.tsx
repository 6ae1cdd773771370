"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { CopyButton } from "@/app/_components/CopyButton";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { RoleBadge } from "@/app/_components/RoleBadge";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useInvitationsQuery } from "@/app/_hooks/queries";

export function PendingInvitations() {
  const queryClient = useQueryClient();
  const { data, error, isPending } = useInvitationsQuery(true);
  const [actionError, setActionError] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="pending-heading">
      <h2 id="pending-heading">Pending invitations</h2>
      {isPending ? <p aria-busy="true">Loading…</p> : null}
      {error ? <p role="alert">Could not load invitations: {error.message}</p> : null}
      {actionError ? (
        <p className="field-error" role="alert">
          {actionError}
        </p>
      ) : null}
      {data && data.items.length === 0 ? <p className="muted">No pending invitations.</p> : null}
      {data && data.items.length > 0 ? (
        <ul className="plain-list">
          {data.items.map((inv) => (
            <li key={inv.id} data-testid={`invitation-${inv.email}`}>
              <div>
                <strong>{inv.email}</strong> <RoleBadge role={inv.role} />
              </div>
              <div className="muted small">
                by {inv.inviter} · expires <RelativeTime iso={inv.expiresAt} />
              </div>
              <div className="row-actions">
                <CopyButton text={`${window.location.origin}${inv.path}`} label="Copy link" />
                <ConfirmButton
                  label="Cancel"
                  question={`Cancel the invitation for ${inv.email}?`}
                  confirmLabel="Yes, cancel it"
                  onConfirm={async () => {
                    setActionError(null);
                    try {
                      await api(`/api/v1/invitations/${inv.id}`, { method: "DELETE" });
                      await queryClient.invalidateQueries({ queryKey: queryKeys.invitations() });
                    } catch (e) {
                      setActionError(e instanceof ApiError ? e.message : "Could not cancel the invitation");
                    }
                  }}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
