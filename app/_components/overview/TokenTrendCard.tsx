"use client";

import Link from "next/link";
import { CONTEXT_TOKENS_LABEL } from "@/lib/context-tokens/encoding";
import { useOverviewTokenTrendQuery } from "@/app/_hooks/overview-queries";
import { dailyTokenPoints, TokenTrendChart } from "@/app/_components/charts/TokenTrendChart";

/** What the team's tool lists cost in a model's context over the last two weeks, with the budget line. */
export function TokenTrendCard() {
  const { data, error } = useOverviewTokenTrendQuery();
  return (
    <section className="card activity-chart" aria-labelledby="token-trend-heading" data-testid="overview-token-trend">
      <h2 id="token-trend-heading">Context tokens per day</h2>
      {error ? (
        <p role="alert">Could not load the token trend: {error.message}</p>
      ) : !data ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <TokenTrendChart
          perDay
          points={dailyTokenPoints(data.trend)}
          budget={data.budgetTokens}
          label="The team's total at the end of each UTC day"
          height={200}
        />
      )}
      <p className="muted small">
        {CONTEXT_TOKENS_LABEL}; the sum of each server&apos;s latest list. <Link href="/team/budget">Budget and costliest servers</Link>
      </p>
    </section>
  );
}
