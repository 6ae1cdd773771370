"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CopyButton } from "@/app/_components/CopyButton";
import { FormError, SelectField, TextField } from "@/app/_components/Field";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import { grantableRoles, type Invitation, type Role } from "@/app/_hooks/types";

/** Invite by link: no mail is sent, the inviter copies the link and passes it on. */
export function InviteForm({ myRole }: { myRole: Role | null }) {
  const queryClient = useQueryClient();
  const roles = grantableRoles(myRole);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>(roles.includes("member") ? "member" : (roles[roles.length - 1] ?? "viewer"));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Invitation | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
      setFields({ email: "Enter the email address of the person you invite." });
      return;
    }
    setFields({});
    setBusy(true);
    try {
      const invitation = await api<Invitation>("/api/v1/invitations", { method: "POST", body: { email: email.trim(), role } });
      setCreated(invitation);
      setEmail("");
      await queryClient.invalidateQueries({ queryKey: queryKeys.invitations() });
    } catch (e) {
      const err = e instanceof ApiError ? e : null;
      setFields(err?.fields ?? {});
      setError(err && Object.keys(err.fields).length ? null : (err?.message ?? "Could not create the invitation"));
    } finally {
      setBusy(false);
    }
  }

  // The address this page was reached by: the API's own idea of its host can differ (proxies, localhost vs 127.0.0.1).
  const link = created ? `${window.location.origin}${created.path}` : "";
  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <form className="form inline-form" onSubmit={submit} noValidate>
        <TextField label="Email" type="email" value={email} onChange={setEmail} error={fields.email} autoComplete="off" required />
        <SelectField label="Role" value={role} onChange={(v) => setRole(v as Role)} options={roles.map((r) => ({ value: r, label: r }))} error={fields.role} />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Creating link…" : "Create invitation link"}
          </button>
        </div>
      </form>
      <FormError message={error} />
      {created ? (
        <div className="highlight" data-testid="invitation-link" role="status">
          <p>
            Invitation for <strong>{created.email}</strong> as <strong>{created.role}</strong>. No email is sent: give this link to them yourself.
          </p>
          <div className="copy-row">
            <input aria-label="Invitation link" readOnly value={link} onFocus={(e) => e.target.select()} />
            <CopyButton text={link} label="Copy link" />
          </div>
          <p className="muted small">
            Expires {new Date(created.expiresAt).toLocaleString()} (<RelativeTime iso={created.expiresAt} />). Only {created.email} can accept it.
          </p>
        </div>
      ) : null}
    </section>
  );
}
