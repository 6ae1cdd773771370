"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { RoleBadge } from "@/app/_components/RoleBadge";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useMeQuery, useMembersQuery } from "@/app/_hooks/queries";
import { grantableRoles, type Me, type Member, type Role } from "@/app/_hooks/types";
import { ContextBudgetSummary } from "./ContextBudgetSummary";
import { IdentityProbeSettings } from "./IdentityProbeSettings";
import { InviteForm } from "./InviteForm";
import { PendingInvitations } from "./PendingInvitations";

export function MembersPage() {
  const { data: me } = useMeQuery();
  const { data, error, isPending } = useMembersQuery();
  if (!me?.team) return null;
  const canManage = me.permissions.includes("member:manage");
  return (
    <section aria-labelledby="members-heading">
      <h1 id="members-heading">Team {me.team.name}</h1>
      <p className="summary">
        Slug <code>{me.team.slug}</code> · your role <RoleBadge role={me.role} />
      </p>
      <h2>Members</h2>
      {isPending ? <p aria-busy="true">Loading members…</p> : null}
      {error ? <p role="alert">Could not load the members: {error.message}</p> : null}
      {data ? (
        <table className="data" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col" className="actions-col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((m) => (
              <MemberRow key={m.id} member={m} me={me} canManage={canManage} />
            ))}
          </tbody>
        </table>
      ) : null}
      {canManage ? (
        <div className="two-columns">
          <InviteForm myRole={me.role} />
          <PendingInvitations />
        </div>
      ) : (
        <p className="muted">Only team owners and admins can invite people or change roles.</p>
      )}
      <ContextBudgetSummary />
      <IdentityProbeSettings />
    </section>
  );
}

function MemberRow({ member, me, canManage }: { member: Member; me: Me; canManage: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const self = member.userId === me.user.id;
  // Only owners touch owners; the server enforces it, the UI just does not offer it.
  const editable = canManage && !self && (member.role !== "owner" || me.role === "owner");
  const roles = grantableRoles(me.role);

  async function run(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The change failed");
    }
  }

  const changeRole = (role: Role) =>
    run(async () => {
      setSaving(true);
      try {
        await api(`/api/v1/members/${member.id}`, { method: "PATCH", body: { role } });
        await queryClient.invalidateQueries({ queryKey: queryKeys.members() });
      } finally {
        setSaving(false);
      }
    });

  const remove = () =>
    run(async () => {
      await api(`/api/v1/members/${member.id}`, { method: "DELETE" });
      if (self) {
        await queryClient.resetQueries();
        router.push("/");
      } else {
        await queryClient.invalidateQueries({ queryKey: queryKeys.members() });
      }
    });

  return (
    <tr data-testid={`member-row-${member.email}`}>
      <th scope="row">
        {member.name || <span className="muted">—</span>} {self ? <span className="tag">you</span> : null}
      </th>
      <td>{member.email}</td>
      <td>
        {editable ? (
          <select aria-label={`Role of ${member.email}`} value={member.role} disabled={saving} onChange={(e) => void changeRole(e.target.value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          <RoleBadge role={member.role} />
        )}
      </td>
      <td>
        <RelativeTime iso={member.joinedAt} />
      </td>
      <td className="actions-col">
        {self ? (
          <ConfirmButton label="Leave team" question={`Leave ${me.team?.name}?`} confirmLabel="Yes, leave" onConfirm={remove} />
        ) : editable ? (
          <ConfirmButton label="Remove" question={`Remove ${member.email}?`} confirmLabel="Yes, remove" onConfirm={remove} />
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
