"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { RoleBadge } from "@/app/_components/RoleBadge";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useKeysQuery } from "@/app/_hooks/queries";
import { TransferKey } from "./TransferKey";

export function KeysTable() {
  const queryClient = useQueryClient();
  const { data, error, isPending } = useKeysQuery();
  const [actionError, setActionError] = useState<string | null>(null);
  if (isPending) return <p aria-busy="true">Loading keys…</p>;
  if (error) return <p role="alert">Could not load the keys: {error.message}</p>;
  if (data.items.length === 0) return <p className="muted">No API keys yet.</p>;
  return (
    <>
      {actionError ? (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      ) : null}
      <table className="data" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col" className="actions-col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((k) => (
            <tr key={k.id} data-testid={`key-row-${k.name}`} className={k.status === "active" ? undefined : "inactive"}>
              <th scope="row">{k.name}</th>
              <td>
                <code data-testid="key-start">{k.start}…</code>
              </td>
              <td>
                <RoleBadge role={k.role} />
              </td>
              <td>
                <RelativeTime iso={k.createdAt} />
                {k.createdBy ? <div className="muted small">by {k.createdBy}</div> : null}
              </td>
              <td data-testid="key-last-used">
                <RelativeTime iso={k.lastUsedAt} />
              </td>
              <td>{k.expiresAt ? <RelativeTime iso={k.expiresAt} /> : <span className="muted">never</span>}</td>
              <td>
                <span className={`badge key-${k.status}`} data-testid="key-status">
                  {k.status}
                </span>
                {k.revokedAt ? (
                  <div className="muted small">
                    <RelativeTime iso={k.revokedAt} />
                    {k.revokedBy ? ` by ${k.revokedBy}` : ""}
                  </div>
                ) : null}
              </td>
              <td className="actions-col">
                {k.status === "active" ? (
                  <ConfirmButton
                    label="Revoke"
                    question={`Revoke “${k.name}”? Anything using it stops working at once.`}
                    confirmLabel="Yes, revoke"
                    onConfirm={async () => {
                      setActionError(null);
                      try {
                        await api(`/api/v1/keys/${k.id}`, { method: "DELETE" });
                        await queryClient.invalidateQueries({ queryKey: queryKeys.keys() });
                      } catch (e) {
                        setActionError(e instanceof ApiError ? e.message : "Could not revoke the key");
                      }
                    }}
                  />
                ) : null}
                {k.status === "active" ? <TransferKey keyId={k.id} keyName={k.name} keyRole={k.role} holder={k.createdBy} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
