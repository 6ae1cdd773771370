"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { AuthForm, type AuthMode } from "@/app/_components/AuthForm";
import { safeNextPath } from "@/app/_hooks/api";
import { useMeQuery } from "@/app/_hooks/queries";

export function LoginPage({ next, initialMode }: { next: string | null; initialMode: AuthMode }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { data: me } = useMeQuery();
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const target = safeNextPath(next);

  // Already signed in (e.g. a bookmarked /login): straight on.
  useEffect(() => {
    if (me) router.replace(target);
  }, [me, router, target]);

  return (
    <section className="auth-page" aria-labelledby="login-heading">
      <h1 id="login-heading">{mode === "signin" ? "Sign in to Toolwatch" : "Create your Toolwatch account"}</h1>
      <p className="muted">
        {mode === "signin"
          ? "Watch every tool of every MCP server your team runs, and every change to them."
          : "After signing up you create a team, or accept the invitation a team admin sent you."}
      </p>
      <AuthForm
        mode={mode}
        onModeChange={setMode}
        onSignedIn={async () => {
          await queryClient.resetQueries();
          router.replace(target);
        }}
      />
    </section>
  );
}
