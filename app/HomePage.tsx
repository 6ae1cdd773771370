"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { FLEET_PATH } from "./_lib/links";
import { useViewsQuery } from "./_hooks/view-queries";
import { OverviewPage } from "./overview/OverviewPage";

/**
 * The team's home. A pinned view wins: the fleet opens with it (the fleet page applies it to a
 * bare /servers). Otherwise the overview. A `/` with a query string is an old fleet bookmark
 * (`/?tag=prod`, `/?view=all`, from before the fleet moved to /servers): it goes there intact.
 */
export function HomePage() {
  const router = useRouter();
  const search = useSearchParams().toString();
  const views = useViewsQuery();
  const pinned = views.data?.some((v) => v.pinned) ?? false;
  const leave = search !== "" || pinned;
  useEffect(() => {
    if (search !== "") router.replace(`${FLEET_PATH}?${search}`);
    else if (pinned) router.replace(FLEET_PATH);
  }, [search, pinned, router]);

  if (leave || views.isPending) return <p aria-busy="true">Loading…</p>;
  return <OverviewPage />;
}
