"use client";

import { CopyButton } from "@/app/_components/CopyButton";
import type { ApiKey } from "@/app/_hooks/types";

/** The one and only time the secret is on screen. */
export function FreshKey({ apiKey, onDone }: { apiKey: ApiKey & { key: string }; onDone: () => void }) {
  return (
    <section className="secret-box" aria-labelledby="fresh-key-heading" data-testid="fresh-key">
      <h2 id="fresh-key-heading">
        New key “{apiKey.name}” ({apiKey.role})
      </h2>
      <p className="secret-warning">
        <strong>Copy this key now.</strong> It is shown only once: Toolwatch stores only a hash and cannot show it again.
      </p>
      <div className="copy-row">
        <code className="secret" data-testid="fresh-key-value">
          {apiKey.key}
        </code>
        <CopyButton text={apiKey.key} label="Copy key" />
      </div>
      <p className="muted small">
        Try it: <code>curl -H &quot;Authorization: Bearer {apiKey.start}…&quot; {typeof window === "undefined" ? "" : window.location.origin}/api/v1/servers</code>
      </p>
      <button type="button" className="button secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
