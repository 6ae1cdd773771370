"use client";

import { useState } from "react";

type Props = {
  /** The button's label, e.g. "Revoke". */
  label: string;
  /** What is asked before acting, e.g. "Revoke key ci-deploy?". */
  question: string;
  /** The label of the button that really acts, e.g. "Yes, revoke". */
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
  /** Table rows use small buttons; page-level actions do not. */
  small?: boolean;
};

/** A destructive action that asks once, in place (no browser dialog), and shows it is working. */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, danger = true, small = true }: Props) {
  const [stage, setStage] = useState<"idle" | "asking" | "busy">("idle");
  const size = small ? " small" : "";
  if (stage === "idle") {
    return (
      <button type="button" className={`button${size} ${danger ? "danger-outline" : "secondary"}`} onClick={() => setStage("asking")}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className={`button${size} ${danger ? "danger" : ""}`}
        disabled={stage === "busy"}
        onClick={async () => {
          setStage("busy");
          try {
            await onConfirm();
          } finally {
            setStage("idle");
          }
        }}
      >
        {stage === "busy" ? "Working…" : confirmLabel}
      </button>
      <button type="button" className={`button${size} secondary`} disabled={stage === "busy"} onClick={() => setStage("idle")}>
        Cancel
      </button>
    </span>
  );
}
