"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { ServerSummary } from "@/lib/servers/server-dto";
import { viewSearchString } from "@/lib/views/view-url";
import { splitTags } from "@/app/_components/server-form/payload";
import { VisibleText } from "@/app/_components/VisibleText";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useCan } from "@/app/_hooks/queries";
import { fleetHref } from "@/app/_lib/links";

/** The server's tags, each a link to the fleet filtered by it; admins edit them in place. */
export function TagEditor({ server }: { server: ServerSummary }) {
  const canWrite = useCan()("server:write");
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(text: string) {
    setBusy(true);
    setError(null);
    try {
      await api(`/api/v1/servers/${encodeURIComponent(server.id)}`, { method: "PATCH", body: { tags: [...new Set(splitTags(text))] } });
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.server(server.id) }), queryClient.invalidateQueries({ queryKey: queryKeys.servers() })]);
      setDraft(null);
    } catch (e) {
      // "tags.2: tags use letters, …" names the bad tag by position: say which one.
      const fields = e instanceof ApiError ? Object.entries(e.fields).filter(([k]) => k.startsWith("tags")) : [];
      const tags = splitTags(text);
      setError(
        fields.length
          ? fields.map(([k, m]) => (k.includes(".") ? `“${tags[Number(k.split(".")[1])] ?? k}”: ${m}` : m)).join("; ")
          : e instanceof ApiError
            ? e.message
            : "Could not save the tags",
      );
    } finally {
      setBusy(false);
    }
  }

  if (draft !== null) {
    return (
      <form
        className="tag-editor"
        aria-label="Edit tags"
        onSubmit={(e) => {
          e.preventDefault();
          void save(draft);
        }}
      >
        <input aria-label="Tags" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="prod, vendor:github" autoFocus aria-invalid={Boolean(error) || undefined} />
        <button type="submit" className="button small" disabled={busy}>
          {busy ? "Saving…" : "Save tags"}
        </button>
        <button type="button" className="button small secondary" disabled={busy} onClick={() => (setDraft(null), setError(null))}>
          Cancel
        </button>
        <span className="hint-text">Separate with commas or spaces; letters, digits and . _ : / -</span>
        {error ? (
          <span role="alert" className="field-error">
            {error}
          </span>
        ) : null}
      </form>
    );
  }
  return (
    <span className="tags" data-testid="server-tags">
      {server.tags.length === 0 ? <span className="muted">none</span> : null}
      {server.tags.map((t) => (
        <Link key={t} className="tag" href={fleetHref(viewSearchString({ servers: { tags: [t] } }))} title={`Servers tagged ${t}`}>
          <VisibleText text={t} />
        </Link>
      ))}
      {canWrite ? (
        <button type="button" className="button small secondary" onClick={() => setDraft(server.tags.join(", "))}>
          Edit tags
        </button>
      ) : null}
    </span>
  );
}
