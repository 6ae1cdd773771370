"use client";

import { TokenTrendChart } from "@/app/_components/charts/TokenTrendChart";
import { useContextBudgetQuery, useTokenTrendQuery } from "@/app/_hooks/context-budget-queries";

/** What this server's tool list costs in a model's context, snapshot by snapshot (docs/context-budget.md). */
export function ServerTokenTrend({ serverId }: { serverId: string }) {
  const { data, error, isPending } = useTokenTrendQuery(serverId);
  const budget = useContextBudgetQuery().data;
  return (
    <section aria-labelledby="token-trend-heading">
      <h2 id="token-trend-heading">Context tokens</h2>
      {isPending ? <p aria-busy="true">Loading…</p> : null}
      {error ? <p role="alert">{error.message}</p> : null}
      {data ? <TokenTrendChart points={data} label="This server's tools, prompts, resources and instructions per snapshot" /> : null}
      {budget?.budgetTokens ? (
        <p className="muted small">
          The team's budget is {budget.budgetTokens.toLocaleString("en-US")} tokens for all servers together; they cost {budget.totalTokens.toLocaleString("en-US")} now.
        </p>
      ) : null}
    </section>
  );
}
