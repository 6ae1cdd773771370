"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";

/** One point of a token trend: when, and how many tokens (null: not counted yet, drawn as a gap). */
export type TokenPoint = { at: string; tokens: number | null };

/** A team's per-UTC-day totals (the budget report's trend) as chart points at each day's start. */
export const dailyTokenPoints = (trend: { day: string; tokens: number | null }[]): TokenPoint[] => trend.map((p) => ({ at: `${p.day}T00:00:00Z`, tokens: p.tokens }));

const shortDate = (iso: string) => new Date(iso).toLocaleString("en-GB", { day: "2-digit", month: "short", hour: "2-digit", minute: "2-digit" });
/** Daily points (the budget page) are UTC days: no time of day, and in UTC whatever the browser's zone. */
const dayDate = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "2-digit", month: "short", timeZone: "UTC" });

/**
 * Context tokens over time as a line (oldest left), with an optional budget line. Shared by the
 * server page (one server's snapshots) and the overview (the team's total). The SVG is decorative
 * for screen readers: the same numbers are in the caption and a visually hidden table.
 */
export function TokenTrendChart({ points, budget, label, height = 180, perDay = false }: { points: TokenPoint[]; budget?: number | null; label: string; height?: number; perDay?: boolean }) {
  const counted = points.filter((p) => p.tokens !== null);
  if (counted.length === 0) return <p className="muted small">No counted snapshot yet ({CONTEXT_TOKENS_LABEL}).</p>;
  const data = points.map((p) => ({ at: p.at, tokens: p.tokens }));
  const first = counted[0]!;
  const last = counted.at(-1)!;
  const when = perDay ? dayDate : shortDate;
  return (
    <figure className="chart" data-testid="token-trend">
      <div aria-hidden="true">
        <LineChart responsive style={{ width: "100%", height }} data={data} margin={{ top: 8, right: 12, bottom: 4, left: 4 }} accessibilityLayer={false}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="at" tickFormatter={when} minTickGap={40} stroke="var(--muted)" fontSize={11} />
          <YAxis tickFormatter={(v: number) => formatTokens(v)} width={56} stroke="var(--muted)" fontSize={11} domain={[0, "auto"]} />
          <Tooltip labelFormatter={(v) => when(String(v))} formatter={(v) => [formatTokens(typeof v === "number" ? v : null), CONTEXT_TOKENS_LABEL]} />
          {typeof budget === "number" ? <ReferenceLine y={budget} ifOverflow="extendDomain" stroke="var(--warn)" strokeDasharray="6 3" label={{ value: `budget ${formatTokens(budget)}`, position: "insideTopRight", fill: "var(--warn)", fontSize: 11 }} /> : null}
          <Line type="stepAfter" dataKey="tokens" stroke="var(--accent)" strokeWidth={2} dot={data.length <= 30} isAnimationActive={false} connectNulls={false} />
        </LineChart>
      </div>
      <figcaption className="muted small">
        {label}: {formatTokens(first.tokens)} → {formatTokens(last.tokens)} over {counted.length} {perDay ? "day" : "snapshot"}
        {counted.length === 1 ? "" : "s"} ({CONTEXT_TOKENS_LABEL})
      </figcaption>
      <table className="visually-hidden">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">{CONTEXT_TOKENS_LABEL}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            <tr key={i}>
              <td>{when(p.at)}</td>
              <td>{formatTokens(p.tokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
