"use client";

import type { ServerSummary } from "../../../lib/servers/server-dto";
import { explainNoMatch } from "../../../lib/views/match-servers";
import type { ViewFilters } from "../../../lib/views/view-input";
import { conditionLabel } from "./filter-labels";

/** No server matches: name each condition, how many servers dropping it alone would show, and offer to clear. */
export function NoMatch({ servers, filters, onChange, onClear }: { servers: ServerSummary[]; filters: ViewFilters; onChange: (next: ViewFilters) => void; onClear: () => void }) {
  const explained = explainNoMatch(servers, filters);
  return (
    <div className="empty no-match" data-testid="no-match">
      <p>
        <strong>
          None of the {servers.length} server{servers.length === 1 ? "" : "s"} match{servers.length === 1 ? "es" : ""} these filters.
        </strong>
      </p>
      {explained.length ? (
        <ul className="plain-list no-match-list">
          {explained.map(({ condition, without, wouldShow }) => (
            <li key={conditionLabel(condition)}>
              <span>
                <strong>{conditionLabel(condition)}</strong> —{" "}
                {wouldShow === 0 ? "still nothing without it" : `without it: ${wouldShow} server${wouldShow === 1 ? "" : "s"}`}
              </span>
              <span>
                <button type="button" className="button small secondary" onClick={() => onChange(without)}>
                  Remove this filter
                </button>
              </span>
            </li>
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
