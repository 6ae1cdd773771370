import { CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";

/**
 * The team's total against its budget as a bar. A native role=meter with aria values: the bar is
 * capped at the budget (aria-valuemax), the text says by how much it is over.
 */
export function BudgetMeter({ total, budget, percent }: { total: number; budget: number; percent: number }) {
  const over = total > budget;
  const width = Math.min(100, (total / budget) * 100);
  return (
    <div className="budget-meter-wrap">
      <div
        className={`budget-meter${over ? " over" : percent >= 80 ? " near" : ""}`}
        role="meter"
        aria-label="Context tokens used of the budget"
        aria-valuemin={0}
        aria-valuemax={budget}
        aria-valuenow={Math.min(total, budget)}
        aria-valuetext={`${formatTokens(total)} of ${formatTokens(budget)} tokens, ${percent}%${over ? ", over the budget" : ""}`}
        data-testid="budget-meter"
      >
        <span className="budget-meter-fill" style={{ width: `${width}%` }} />
      </div>
      <p className="budget-meter-legend">
        <strong data-testid="budget-percent">{percent}%</strong> of the budget · {formatTokens(total)} of {formatTokens(budget)}{" "}
        <span className="muted small">{CONTEXT_TOKENS_LABEL}</span>
        {over ? <strong className="warn-text"> — over by {formatTokens(total - budget)}</strong> : null}
      </p>
    </div>
  );
}
