"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { FLEET_PATH } from "./_lib/links";
import { useViewsQuery } from "./_hooks/view-queries";
import { OverviewPage } from "./overview/OverviewPage";
import { openViewHref } from "./views/view-actions";

/**
 * The team's home. A pinned view wins: the fleet opens with it, its filters and id in the URL in
 * one navigation (as opening it from the views list does). Otherwise the overview. A `/` with a
 * query string is an old fleet bookmark (`/?tag=prod`, `/?view=all`, from before the fleet moved
 * to /servers): it goes there intact.
 */
export function HomePage() {
  const router = useRouter();
  const search = useSearchParams().toString();
  const views = useViewsQuery();
  const pinned = views.data?.find((v) => v.pinned) ?? null;
  const target = search !== "" ? `${FLEET_PATH}?${search}` : pinned ? openViewHref(pinned) : null;
  useEffect(() => {
    if (target) router.replace(target);
  }, [target, router]);

  if (target || views.isPending) return <p aria-busy="true">Loading…</p>;
  return <OverviewPage />;
}
