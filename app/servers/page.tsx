import { Suspense } from "react";
import { FleetPage } from "./FleetPage";

export default function Page() {
  // The filters live in the query string (nuqs reads useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense fallback={<p aria-busy="true">Loading fleet…</p>}>
      <FleetPage />
    </Suspense>
  );
}
