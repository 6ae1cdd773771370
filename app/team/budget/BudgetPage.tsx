"use client";

import Link from "next/link";
import { TokenCount } from "@/app/_components/charts/TokenCount";
import { dailyTokenPoints, TokenTrendChart } from "@/app/_components/charts/TokenTrendChart";
import { useContextBudgetReportQuery } from "@/app/_hooks/context-budget-queries";
import { useMeQuery } from "@/app/_hooks/queries";
import { CONTEXT_TOKENS_LABEL } from "@/lib/context-tokens/encoding";
import { BudgetMeter } from "./BudgetMeter";
import { ContextBudgetForm } from "./ContextBudgetForm";
import { CostliestServersTable } from "./CostliestServersTable";
import { alertHref } from "@/app/_lib/links";

/**
 * /team/budget: what the team's tool lists cost in a model's context against its budget, which
 * servers cost most, the total per day over 30 days, the open alert, and the budget setting.
 */
export function BudgetPage() {
  const { data: me } = useMeQuery();
  const { data, error, isPending } = useContextBudgetReportQuery();
  if (!me?.team) return null;
  const canEdit = me.permissions.includes("server:write");
  const nothingCounted = data !== undefined && data.countedServers === 0;
  return (
    <section aria-labelledby="budget-page-heading">
      <h1 id="budget-page-heading">Context budget</h1>
      <p className="summary">
        What every server&apos;s latest tool list costs in a model&apos;s context, together ({CONTEXT_TOKENS_LABEL};{" "}
        <a href="https://github.com/niieani/gpt-tokenizer">gpt-tokenizer</a>).
      </p>
      {isPending ? <p aria-busy="true">Loading the budget…</p> : null}
      {error ? <p role="alert">Could not load the budget: {error.message}</p> : null}
      {data && data.alert ? (
        <p className="callout warn" role="status" data-testid="budget-alert">
          Open alert: <Link href={alertHref(data.alert.id)}>{data.alert.title}</Link> ({data.alert.status})
        </p>
      ) : null}
      {nothingCounted ? (
        <div className="card empty-state" data-testid="budget-empty">
          <h2>Nothing counted yet</h2>
          <p>
            {data.servers === 0 ? (
              <>
                The team has no servers. <Link href="/servers/new">Add a server</Link>: once the worker lists its tools, their tokens show here.
              </>
            ) : (
              <>Toolwatch counts each server&apos;s tokens when the worker lists it. Come back after the first listing; the page refreshes by itself.</>
            )}
          </p>
        </div>
      ) : null}
      {data && !nothingCounted ? (
        <>
          <div className="card" data-testid="budget-total">
            <h2>Total</h2>
            <p className="budget-total">
              <TokenCount tokens={data.totalTokens} testId="budget-total-tokens" /> across {data.countedServers} server{data.countedServers === 1 ? "" : "s"}
              {data.countedServers < data.servers ? <span className="muted"> ({data.servers - data.countedServers} not counted yet)</span> : null}
            </p>
            {data.budgetTokens !== null && data.percentOfBudget !== null ? (
              <BudgetMeter total={data.totalTokens} budget={data.budgetTokens} percent={data.percentOfBudget} />
            ) : (
              <p className="muted">No budget is set{canEdit ? ": set one below to be warned when the team goes over it." : "."}</p>
            )}
          </div>
          <h2>Trend, last {data.trend.length} days</h2>
          <TokenTrendChart
            perDay
            points={dailyTokenPoints(data.trend)}
            budget={data.budgetTokens}
            label="The team's total at the end of each UTC day"
            height={220}
          />
          <h2>Servers that cost most</h2>
          <CostliestServersTable servers={data.topServers} total={data.totalTokens} />
        </>
      ) : null}
      <ContextBudgetForm canEdit={canEdit} budgetTokens={data?.budgetTokens} />
    </section>
  );
}
