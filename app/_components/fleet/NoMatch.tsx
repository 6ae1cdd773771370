"use client";

import { serverConditions, type ServerCondition } from "@/lib/views/match-servers";
import type { ViewFilters } from "@/lib/views/view-input";
import { useServerCountQuery } from "@/app/_hooks/server-list-queries";
import { conditionLabel } from "./filter-labels";

/** No server matches: name each condition, how many servers dropping it alone would show (counted by the API), and offer to clear. */
export function NoMatch({ teamTotal, filters, onChange, onClear }: { teamTotal: number; filters: ViewFilters; onChange: (next: ViewFilters) => void; onClear: () => void }) {
  const explained = serverConditions(filters);
  return (
    <div className="empty no-match" data-testid="no-match">
      <p>
        <strong>
          None of the {teamTotal} server{teamTotal === 1 ? "" : "s"} match{teamTotal === 1 ? "es" : ""} these filters.
        </strong>
      </p>
      {explained.length ? (
        <ul className="plain-list no-match-list">
          {explained.map(({ condition, without }) => (
            <Condition key={conditionLabel(condition)} condition={condition} without={without} onChange={onChange} />
          ))}
        </ul>
      ) : null}
      <p>
        <button type="button" className="button" onClick={onClear}>
          Clear filters
        </button>
      </p>
    </div>
  );
}

function Condition({ condition, without, onChange }: { condition: ServerCondition; without: ViewFilters; onChange: (next: ViewFilters) => void }) {
  const wouldShow = useServerCountQuery(without).data;
  return (
    <li>
      <span>
        <strong>{conditionLabel(condition)}</strong> —{" "}
        {wouldShow === undefined ? "counting…" : wouldShow === 0 ? "still nothing without it" : `without it: ${wouldShow} server${wouldShow === 1 ? "" : "s"}`}
      </span>
      <span>
        <button type="button" className="button small secondary" onClick={() => onChange(without)}>
          Remove this filter
        </button>
      </span>
    </li>
  );
}
