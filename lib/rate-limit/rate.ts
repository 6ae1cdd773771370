// A rate as configured in the environment: requests per window.
export type Rate = { limit: number; windowSeconds: number };

/** "600/min", "20/15min", "5/2s", "100/h": requests per window. "0" (or "off") = no limit. */
export function parseRate(text: string): Rate | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === "0" || trimmed === "off") return null;
  const match = /^(\d+)\s*\/\s*(\d*)\s*(s|sec|second|m|min|minute|h|hour)$/.exec(trimmed);
  if (!match) throw new Error(`"${text}" is not a rate: write <requests>/<window>, e.g. 600/min, 20/15min, 5/10s, 0 for no limit`);
  const count = Number(match[1]);
  const times = match[2] ? Number(match[2]) : 1;
  const unit = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hour: 3600 }[match[3] as "s"];
  if (count < 1 || times < 1) throw new Error(`"${text}" is not a rate: requests and window must be at least 1`);
  return { limit: count, windowSeconds: times * unit };
}
