"use client";

import { useEffect, useRef } from "react";

/**
 * Below the fleet table: how many of the matching servers are on screen, and the next page —
 * loaded when this comes into view (infinite scroll) or by the button (keyboard, no observer).
 */
export function LoadMore({ shown, total, hasMore, loading, onLoad }: { shown: number; total: number; hasMore: boolean; loading: boolean; onLoad: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const load = useRef(onLoad);
  load.current = onLoad;
  useEffect(() => {
    const node = ref.current;
    if (!node || !hasMore || loading || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load.current();
    }, { rootMargin: "600px 0px" });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, loading]);
  if (!hasMore) return shown > 100 ? <p className="muted small" data-testid="fleet-end">All {total} servers shown.</p> : null;
  return (
    <div ref={ref} className="load-more" data-testid="load-more">
      <span className="muted small">
        {shown} of {total} shown
      </span>{" "}
      <button type="button" className="button small secondary" onClick={onLoad} disabled={loading} aria-busy={loading}>
        {loading ? "Loading…" : "Load more"}
      </button>
    </div>
  );
}
