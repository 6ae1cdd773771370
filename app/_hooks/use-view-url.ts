"use client";

import { debounce, parseAsString, useQueryStates } from "nuqs";
import { useMemo } from "react";
import type { ViewFilters } from "@/lib/views/view-input";
import { hasViewUrlParams, parseViewUrl, toViewUrlParams, VIEW_URL_KEYS, type ViewUrlKey } from "@/lib/views/view-url";

// The fleet page's state is its URL: nuqs keeps the query string and React in step (shallow, no
// server round trip), lib/views/view-url says what the strings mean. `view` names the saved view
// the filters came from ("all": the unfiltered fleet on purpose, not the team's pinned home).
const PARAMS = {
  ...(Object.fromEntries(VIEW_URL_KEYS.map((key) => [key, parseAsString])) as Record<ViewUrlKey, typeof parseAsString>),
  view: parseAsString,
};

/** `view=all`: show every server even when the team has a pinned view. */
export const ALL_SERVERS = "all";

export type SetFiltersOptions = { /** Typing in a text box: one URL write after a pause, not one per key. */ debounced?: boolean; view?: string | null };

export function useViewUrl() {
  const [raw, setRaw] = useQueryStates(PARAMS, { history: "push" });
  // Keyed by content: the parsed filters keep their identity while the URL does not change.
  const rawKey = JSON.stringify(raw);
  const filters = useMemo(() => parseViewUrl(JSON.parse(rawKey) as typeof raw), [rawKey]);
  return {
    filters,
    /** A saved view's id, ALL_SERVERS, or null. */
    view: raw.view,
    hasFilterParams: hasViewUrlParams(raw),
    /** Replaces every filter (absent ones are removed from the URL). */
    setFilters: (next: ViewFilters, options: SetFiltersOptions = {}) =>
      setRaw(
        { ...toViewUrlParams(next), ...(options.view !== undefined ? { view: options.view } : {}) },
        options.debounced ? { limitUrlUpdates: debounce(350) } : {},
      ),
    /** Shows a saved view: its filters and its id, replacing the history entry (opening is not an edit to go back from). */
    showView: (filters: ViewFilters, view: string | null, history: "push" | "replace" = "replace") =>
      setRaw({ ...toViewUrlParams(filters), view }, { history }),
  };
}
