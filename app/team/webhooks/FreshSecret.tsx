"use client";

import { useEffect, useRef } from "react";
import { CopyButton } from "@/app/_components/CopyButton";
import { VisibleText } from "@/app/_components/VisibleText";
import type { WebhookWithSecret } from "@/app/_hooks/webhook-queries";
import { VerifyHelp, type SignatureHeaders } from "./VerifyHelp";

/** The one and only time a signing secret is on screen (after creation or rotation). */
export function FreshSecret({ webhook, rotated, headers, onDone }: { webhook: WebhookWithSecret; rotated: boolean; headers: SignatureHeaders; onDone: () => void }) {
  const box = useRef<HTMLElement>(null);
  // A rotation is started far down the page: bring the secret into view.
  useEffect(() => box.current?.scrollIntoView({ block: "nearest", behavior: "smooth" }), [webhook.secret]);
  return (
    <section ref={box} className="secret-box" aria-labelledby="fresh-secret-heading" data-testid="fresh-secret">
      <h2 id="fresh-secret-heading">
        {rotated ? "New signing secret for" : "Webhook created:"} “<VisibleText text={webhook.name} />”
      </h2>
      <p className="secret-warning">
        <strong>Copy this signing secret now.</strong> It is shown only once: Toolwatch keeps it sealed and cannot show it again
        {rotated ? ". The old secret stopped working at once: update your receiver." : ". Rotate it to get a new one."}
      </p>
      <div className="copy-row">
        <code className="secret" data-testid="fresh-secret-value">
          {webhook.secret}
        </code>
        <CopyButton text={webhook.secret} label="Copy secret" />
      </div>
      <VerifyHelp headers={headers} secretName="secret" />
      <button type="button" className="button secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
