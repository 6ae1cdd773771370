"use client";

import { useState, type FormEvent } from "react";
import { api, ApiError } from "@/app/_hooks/api";
import { FormError, TextField } from "./Field";

export type AuthMode = "signin" | "signup";

type Props = {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  /** Called once the session cookie is set. */
  onSignedIn: () => Promise<void> | void;
  /** An address fixed by an invitation: shown, not editable. */
  fixedEmail?: string;
};

type Problems = { name?: string; email?: string; password?: string; form?: string };

/** better-auth's error codes, said the way a person needs to read them. */
function explain(error: unknown, mode: AuthMode): Problems {
  if (!(error instanceof ApiError)) return { form: "Could not reach Toolwatch. Check your connection and try again." };
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return { form: "Wrong email or password. Check both and try again." };
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return { email: "An account with this email already exists. Sign in instead." };
    case "PASSWORD_TOO_SHORT":
      return { password: "Use at least 8 characters." };
    case "PASSWORD_TOO_LONG":
      return { password: "That password is too long (128 characters at most)." };
    case "INVALID_EMAIL":
      return { email: "Enter a valid email address." };
  }
  if (error.status === 429) return { form: `Too many ${mode === "signin" ? "sign-in" : "sign-up"} attempts. Wait a few seconds and try again.` };
  return { form: error.message };
}

function validate(mode: AuthMode, name: string, email: string, password: string): Problems {
  const problems: Problems = {};
  if (mode === "signup" && !name.trim()) problems.name = "Enter your name.";
  if (!email.trim()) problems.email = "Enter your email address.";
  else if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) problems.email = "Enter a valid email address.";
  if (!password) problems.password = "Enter your password.";
  else if (mode === "signup" && password.length < 8) problems.password = "Use at least 8 characters.";
  return problems;
}

/** Sign in or create an account (email and password), with one message per problem field. */
export function AuthForm({ mode, onModeChange, onSignedIn, fixedEmail }: Props) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState(fixedEmail ?? "");
  const [password, setPassword] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(mode, name, email, password);
    setProblems(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const body = mode === "signup" ? { name: name.trim(), email: email.trim(), password } : { email: email.trim(), password };
      await api(mode === "signup" ? "/api/auth/sign-up/email" : "/api/auth/sign-in/email", { method: "POST", body });
      await onSignedIn();
    } catch (error) {
      setProblems(explain(error, mode));
      setBusy(false);
    }
  }

  const switchMode = (next: AuthMode) => {
    setProblems({});
    onModeChange(next);
  };

  return (
    <div className="card auth-card">
      <div role="tablist" aria-label="Account" className="tabs">
        <button type="button" role="tab" id="tab-signin" aria-selected={mode === "signin"} aria-controls="auth-panel" onClick={() => switchMode("signin")}>
          Sign in
        </button>
        <button type="button" role="tab" id="tab-signup" aria-selected={mode === "signup"} aria-controls="auth-panel" onClick={() => switchMode("signup")}>
          Create account
        </button>
      </div>
      <form id="auth-panel" role="tabpanel" aria-labelledby={mode === "signin" ? "tab-signin" : "tab-signup"} className="form" onSubmit={submit} noValidate>
        {mode === "signup" ? <TextField label="Name" value={name} onChange={setName} error={problems.name} autoComplete="name" required /> : null}
        <TextField
          label="Email"
          type="email"
          value={email}
          onChange={setEmail}
          error={problems.email}
          autoComplete="email"
          readOnly={Boolean(fixedEmail)}
          hint={fixedEmail ? "The invitation is for this address." : undefined}
          required
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={setPassword}
          error={problems.password}
          autoComplete={mode === "signup" ? "new-password" : "current-password"}
          hint={mode === "signup" ? "At least 8 characters." : undefined}
          required
        />
        <FormError message={problems.form} />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? (mode === "signup" ? "Creating account…" : "Signing in…") : mode === "signup" ? "Create account" : "Sign in"}
          </button>
        </div>
      </form>
    </div>
  );
}
