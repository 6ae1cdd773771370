import Link from "next/link";
import type { ContextBudgetDetails as Details } from "@/lib/alerts/alert-dto";
import { CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";
import { VisibleText } from "@/app/_components/VisibleText";
import { serverHref } from "@/app/_lib/links";

/** context_budget: the team's total against its budget, the largest servers and what pushed it over. */
export function ContextBudgetDetails({ budget: b }: { budget: Details }) {
  return (
    <section aria-labelledby="budget-details-heading" className="card" data-testid="context-budget-details">
      <h2 id="budget-details-heading">Context budget</h2>
      <p>
        All servers&apos; tool lists together cost <strong>{formatTokens(b.totalTokens)}</strong> tokens against a budget of{" "}
        <strong>{formatTokens(b.budgetTokens)}</strong> ({CONTEXT_TOKENS_LABEL}): over by {formatTokens(b.totalTokens - b.budgetTokens)}.
        {b.countedServers < b.servers ? ` ${b.servers - b.countedServers} of ${b.servers} servers are not counted yet.` : ""}{" "}
        <Link href="/team">Change the budget</Link>
      </p>
      {b.pushedBy ? (
        <p>
          Pushed over by a change of{" "}
          <Link href={serverHref(b.pushedBy.serverId)}>
            <VisibleText text={b.pushedBy.serverName} />
          </Link>
          {b.pushedBy.deltaTokens !== null ? ` (${b.pushedBy.deltaTokens >= 0 ? "+" : ""}${formatTokens(b.pushedBy.deltaTokens)} tokens)` : ""}.
        </p>
      ) : null}
      {b.largest.length ? (
        <>
          <p>The largest servers:</p>
          <ol className="flat-list">
            {b.largest.map((s) => (
              <li key={s.serverId}>
                <Link href={serverHref(s.serverId)}>
                  <VisibleText text={s.serverName} />
                </Link>{" "}
                {formatTokens(s.contextTokens)}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
