"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api, ApiError } from "@/app/_hooks/api";
import { FormError, TextField } from "./Field";

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");

/** Name and slug of a new team; its creator becomes the owner and lands on its (empty) fleet. */
export function CreateTeamForm() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = "Give the team a name";
    if (!slug.trim()) problems.slug = "Choose a short slug (letters, digits and dashes)";
    setFields(problems);
    setError(null);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await api("/api/v1/teams", { method: "POST", body: { name: name.trim(), slug: slug.trim() } });
      // The new team is now the session's active team: start from a clean cache on its fleet.
      await queryClient.resetQueries();
      router.push("/");
    } catch (e) {
      const err = e as ApiError;
      setFields(err.fields ?? {});
      setError(Object.keys(err.fields ?? {}).length ? null : err.message);
      setBusy(false);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Create a team">
      <TextField
        label="Team name"
        value={name}
        onChange={(v) => {
          setName(v);
          if (!slugEdited) setSlug(slugify(v));
        }}
        error={fields.name}
        autoComplete="organization"
        required
      />
      <TextField
        label="Slug"
        value={slug}
        onChange={(v) => {
          setSlugEdited(true);
          setSlug(v);
        }}
        error={fields.slug}
        hint="Lowercase letters, digits and dashes; unique on this instance."
        required
        spellCheck={false}
      />
      <FormError message={error} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Creating…" : "Create team"}
        </button>
      </div>
    </form>
  );
}
