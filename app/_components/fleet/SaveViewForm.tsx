"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ViewFilters } from "@/lib/views/view-input";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import type { ViewDto } from "@/app/_hooks/view-queries";
import { FormError, TextField } from "@/app/_components/Field";

/** Names the current filters as a team view, optionally the team's home; the API's field errors show in place. */
export function SaveViewForm({ filters, onSaved, onCancel }: { filters: ViewFilters; onSaved: (view: ViewDto) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [pinned, setPinned] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const view = await api<ViewDto>("/api/v1/views", { method: "POST", body: { name, filters, pinned } });
      await queryClient.invalidateQueries({ queryKey: queryKeys.views() });
      onSaved(view);
    } catch (e) {
      setError(e instanceof ApiError ? { message: e.message, fields: e.fields } : { message: "Could not save the view", fields: {} });
    } finally {
      setBusy(false);
    }
  }

  const nameError = error?.fields.name;
  const otherFields = Object.entries(error?.fields ?? {}).filter(([k]) => k !== "name");
  return (
    <form
      className="form inline-form card save-view"
      aria-label="Save as view"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <TextField label="View name" value={name} onChange={setName} error={nameError} maxLength={100} autoFocus placeholder="e.g. Production, GitHub vendor" />
      <div className="field checkbox">
        <label>
          <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} /> Pin as the team&apos;s home
        </label>
        <p className="hint-text">Everyone in the team then sees this view when opening the fleet.</p>
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Saving…" : "Save view"}
        </button>
        <button type="button" className="button secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      <FormError message={error && !nameError ? error.message + (otherFields.length ? ` (${otherFields.map(([k, v]) => `${k}: ${v}`).join("; ")})` : "") : null} />
    </form>
  );
}
