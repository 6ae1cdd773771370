"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { AuthForm, type AuthMode } from "@/app/_components/AuthForm";
import { FormError } from "@/app/_components/Field";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useMeQuery, usePublicInvitationQuery } from "@/app/_hooks/queries";
import { useRealtime } from "@/app/_hooks/realtime";
import type { PublicInvitation } from "@/app/_hooks/types";

const STATUS_TEXT: Record<string, string> = {
  accepted: "This invitation has already been accepted.",
  canceled: "This invitation was canceled by the team. Ask a team admin for a new link.",
  expired: "This invitation has expired. Ask a team admin for a new link.",
  rejected: "This invitation was declined.",
};

export function InvitePage({ id }: { id: string }) {
  const { data: invitation, error, isPending } = usePublicInvitationQuery(id);
  if (isPending) return <p aria-busy="true">Loading invitation…</p>;
  if (error) {
    return (
      <section className="narrow" aria-labelledby="invite-heading">
        <h1 id="invite-heading">Invitation not found</h1>
        <p role="alert">
          {error instanceof ApiError && error.status === 404 ? "This invitation link is not valid. Check that you copied all of it." : error.message}
        </p>
        <p>
          <Link href="/login">Go to sign in</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow" aria-labelledby="invite-heading">
      <h1 id="invite-heading">Join {invitation.team.name} on Toolwatch</h1>
      <dl className="facts" data-testid="invitation-facts">
        <dt>Team</dt>
        <dd>
          {invitation.team.name} <span className="muted">({invitation.team.slug})</span>
        </dd>
        <dt>Invited by</dt>
        <dd>{invitation.inviter}</dd>
        <dt>Role</dt>
        <dd>
          <span className={`role role-${invitation.role}`}>{invitation.role}</span>
        </dd>
        <dt>For</dt>
        <dd>{invitation.email}</dd>
        <dt>{invitation.status === "pending" ? "Expires" : "Status"}</dt>
        <dd>
          {invitation.status === "pending" ? (
            <>
              {new Date(invitation.expiresAt).toLocaleString()} (<RelativeTime iso={invitation.expiresAt} />)
            </>
          ) : (
            invitation.status
          )}
        </dd>
      </dl>
      {invitation.status === "pending" ? (
        <InviteAction invitation={invitation} />
      ) : (
        <p className="notice" role="status">
          {STATUS_TEXT[invitation.status] ?? `This invitation is ${invitation.status}.`} <Link href="/">Go to Toolwatch</Link>
        </p>
      )}
    </section>
  );
}

function InviteAction({ invitation }: { invitation: PublicInvitation }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { reconnect } = useRealtime();
  const { data: me, isPending } = useMeQuery();
  const [mode, setMode] = useState<AuthMode>("signup");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (isPending) return <p aria-busy="true">Checking your session…</p>;

  if (!me) {
    return (
      <>
        <p>
          {mode === "signup" ? "Create an account" : "Sign in"} with <strong>{invitation.email}</strong> to accept.
        </p>
        <AuthForm mode={mode} onModeChange={setMode} fixedEmail={invitation.email} onSignedIn={() => queryClient.invalidateQueries({ queryKey: queryKeys.me() })} />
      </>
    );
  }

  if (me.user.email.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <div className="notice warn" role="status">
        <p>
          You are signed in as <strong>{me.user.email}</strong>, but this invitation is for <strong>{invitation.email}</strong>. Sign out, then sign in
          or create an account with the invited address.
        </p>
        <button
          type="button"
          className="button"
          onClick={async () => {
            await api("/api/auth/sign-out", { method: "POST", body: {} }).catch(() => undefined);
            queryClient.setQueryData(queryKeys.me(), null);
            setMode("signin");
          }}
        >
          Sign out
        </button>
      </div>
    );
  }

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      await api(`/api/v1/invitations/${encodeURIComponent(invitation.id)}/accept`, { method: "POST", body: {} });
      // The joined team is now active; the socket must re-handshake to be let into its room.
      await queryClient.resetQueries();
      reconnect();
      router.push("/");
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Could not accept the invitation");
      setBusy(false);
    }
  }

  return (
    <div className="actions-block">
      <p>
        Signed in as <strong>{me.user.email}</strong>.
      </p>
      <FormError message={error} />
      <button type="button" className="button" disabled={busy} onClick={() => void accept()}>
        {busy ? "Joining…" : `Accept and join ${invitation.team.name}`}
      </button>
    </div>
  );
}
