"use client";

import Link from "next/link";
import { TokenCount } from "@/app/_components/charts/TokenCount";
import { useContextBudgetQuery } from "@/app/_hooks/context-budget-queries";
import { formatTokens } from "@/lib/context-tokens/encoding";
import { alertHref } from "@/app/_lib/links";

/** One paragraph on the Team page: the total, the budget, whether it is over; details and the form are on /team/budget. */
export function ContextBudgetSummary() {
  const { data, error } = useContextBudgetQuery();
  return (
    <section className="card" aria-labelledby="budget-heading">
      <h2 id="budget-heading">Context budget</h2>
      {error ? <p role="alert">Could not load the budget: {error.message}</p> : null}
      {data ? (
        <p data-testid="team-context-tokens">
          The team&apos;s tool lists cost <TokenCount tokens={data.totalTokens} /> together now
          {data.countedServers < data.servers ? ` (${data.countedServers} of ${data.servers} servers counted so far)` : ""}.{" "}
          {data.budgetTokens != null ? (
            <>
              Budget: <strong>{formatTokens(data.budgetTokens)}</strong>
              {data.totalTokens > data.budgetTokens ? (
                <>
                  {" "}
                  — <strong className="warn-text">over by {formatTokens(data.totalTokens - data.budgetTokens)}</strong>
                  {data.alertId ? (
                    <>
                      {" "}
                      (<Link href={alertHref(data.alertId)}>alert</Link>)
                    </>
                  ) : null}
                </>
              ) : null}
              .
            </>
          ) : (
            "No budget is set."
          )}
        </p>
      ) : null}
      <p>
        <Link href="/team/budget">See the budget page</Link>: the costliest servers, the trend over 30 days, and the budget setting.
      </p>
    </section>
  );
}
