"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { FormError, SelectField, TextField } from "@/app/_components/Field";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import { grantableRoles, type ApiKey, type Role } from "@/app/_hooks/types";

export function CreateKeyForm({ myRole, onCreated }: { myRole: Role | null; onCreated: (key: ApiKey & { key: string }) => void }) {
  const queryClient = useQueryClient();
  const roles = grantableRoles(myRole);
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [days, setDays] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = "Name the key after what will use it, e.g. “CI deploy”.";
    const expiresInDays = days.trim() ? Number(days) : null;
    if (expiresInDays !== null && (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > 3650)) {
      problems.expiresInDays = "A whole number of days from 1 to 3650, or empty for no expiry.";
    }
    setFields(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const created = await api<ApiKey & { key: string }>("/api/v1/keys", { method: "POST", body: { name: name.trim(), role, expiresInDays } });
      onCreated(created);
      setName("");
      setDays("");
      await queryClient.invalidateQueries({ queryKey: queryKeys.keys() });
    } catch (e) {
      const err = e instanceof ApiError ? e : null;
      setFields(err?.fields ?? {});
      setError(err && Object.keys(err.fields).length ? null : (err?.message ?? "Could not create the key"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">Create a key</h2>
      <form className="form inline-form" onSubmit={submit} noValidate>
        <TextField label="Name" value={name} onChange={setName} error={fields.name} required maxLength={80} />
        <SelectField label="Role" value={role} onChange={(v) => setRole(v as Role)} options={roles.map((r) => ({ value: r, label: r }))} error={fields.role} />
        <TextField
          label="Expires after (days)"
          type="number"
          min={1}
          max={3650}
          inputMode="numeric"
          value={days}
          onChange={setDays}
          error={fields.expiresInDays}
          hint="Empty: never expires."
        />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>
      <FormError message={error} />
    </section>
  );
}
