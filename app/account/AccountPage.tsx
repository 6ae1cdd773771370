"use client";

import { useState, type FormEvent } from "react";
import { FormError, TextField } from "@/app/_components/Field";
import { RoleBadge } from "@/app/_components/RoleBadge";
import { api, ApiError } from "@/app/_hooks/api";
import { useMeQuery } from "@/app/_hooks/queries";

/** The signed-in person: who they are, their teams, and a password change (better-auth). */
export function AccountPage() {
  const { data: me } = useMeQuery();
  if (!me) return null;
  return (
    <section className="narrow" aria-labelledby="account-heading">
      <h1 id="account-heading">Your account</h1>
      <p>
        {me.user.name} · <code>{me.user.email}</code>
        {me.user.instanceAdmin ? <span className="badge"> instance administrator</span> : null}
      </p>
      {me.user.instanceAdmin ? (
        <p className="muted">As instance administrator you may register stdio servers (they run a command on the worker host).</p>
      ) : null}
      <h2>Teams</h2>
      <ul>
        {me.teams.map((t) => (
          <li key={t.id}>
            {t.name} <code className="muted">{t.slug}</code> <RoleBadge role={t.role} />
          </li>
        ))}
      </ul>
      <h2>Change password</h2>
      <ChangePasswordForm />
      <h2>Sessions</h2>
      <SignOutEverywhere />
    </section>
  );
}

/** Ends every session of this person, on every device, this one included (POST /api/v1/me/sign-out-everywhere). */
function SignOutEverywhere() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="card form">
      <p className="muted">Lost a device, or signed in somewhere you should not have? Every browser signed in as you is signed out, this one too.</p>
      <FormError message={error} />
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await api("/api/v1/me/sign-out-everywhere", { method: "POST" });
            window.location.assign("/login");
          } catch (e) {
            setError((e as ApiError).message);
            setBusy(false);
          }
        }}
      >
        Sign out everywhere
      </button>
    </div>
  );
}

function ChangePasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!current) problems.current = "Enter your current password";
    if (next.length < 8) problems.next = "At least 8 characters";
    setFields(problems);
    setError(null);
    setDone(false);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      // Other sessions are signed out: a changed password should lock out whoever had the old one.
      await api("/api/auth/change-password", { method: "POST", body: { currentPassword: current, newPassword: next, revokeOtherSessions: true } });
      setCurrent("");
      setNext("");
      setDone(true);
    } catch (e) {
      const err = e as ApiError;
      setError(err.code === "INVALID_PASSWORD" ? "Your current password is not right" : err.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Change password">
      <TextField label="Current password" type="password" autoComplete="current-password" value={current} onChange={setCurrent} error={fields.current} />
      <TextField label="New password" type="password" autoComplete="new-password" value={next} onChange={setNext} error={fields.next} />
      <FormError message={error} />
      {done ? <p role="status">Password changed. Your other sessions were signed out.</p> : null}
      <button type="submit" className="button primary" disabled={busy}>
        Change password
      </button>
    </form>
  );
}
