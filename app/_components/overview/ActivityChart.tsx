"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Overview } from "@/lib/overview/overview-dto";

// Colours come from the theme's CSS variables: the bars draw in currentColor and the stylesheet
// sets `color` on each series (app/globals.css .chart-…), so a theme switch recolours them.
const dayLabel = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

/** Changes recorded and alerts opened per day, with the same numbers as a table for screen readers. */
export function ActivityChart({ timeline }: { timeline: Overview["timeline"] }) {
  const data = timeline.days.map((d) => ({ ...d, label: dayLabel(d.day) }));
  return (
    <figure className="card activity-chart" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Changes and alerts per day</h2>
      <ul className="chart-legend" aria-hidden="true">
        <li className="chart-changes">
          <span className="swatch" /> changes
        </li>
        <li className="chart-alerts">
          <span className="swatch" /> alerts opened
        </li>
      </ul>
      <div className="chart-box">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} barGap={2}>
            <CartesianGrid vertical={false} />
            <XAxis dataKey="label" tickLine={false} interval="preserveStartEnd" minTickGap={12} />
            <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={48} />
            <Tooltip cursor={{ fill: "var(--line)", opacity: 0.4 }} contentStyle={{ background: "var(--card)", border: "1px solid var(--line)", color: "var(--fg)" }} />
            <Bar dataKey="changes" name="changes" className="chart-changes" fill="currentColor" isAnimationActive={false} />
            <Bar dataKey="alerts" name="alerts opened" className="chart-alerts" fill="currentColor" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted small">
        The last {timeline.days.length} days in {timeline.timeZone}, today last.
      </figcaption>
      <details className="chart-table">
        <summary>As a table</summary>
        <table className="compact-table" data-testid="activity-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="num">
                Changes
              </th>
              <th scope="col" className="num">
                Alerts opened
              </th>
            </tr>
          </thead>
          <tbody>
            {timeline.days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td className="num">{d.changes}</td>
                <td className="num">{d.alerts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
