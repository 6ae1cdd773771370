import type { ConnectionFacts } from "./open-connection";
import type { SessionStatusName } from "./session-status";

export type SessionStateChange = {
  status?: SessionStatusName;
  reason?: string;
  error?: { code: string; message: string } | null;
  facts?: ConnectionFacts;
  connectedAt?: Date | null;
};

/** A later change wins field by field; fields it leaves out keep the earlier change's values. */
export function mergeStateChanges(earlier: SessionStateChange | undefined, later: SessionStateChange): SessionStateChange {
  if (!earlier) return later;
  const merged: SessionStateChange = { ...earlier };
  for (const [key, value] of Object.entries(later) as Array<[keyof SessionStateChange, never]>) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}
