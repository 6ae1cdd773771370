import { Suspense } from "react";
import { AlertsPage } from "./AlertsPage";

export const metadata = { title: "Alerts · Toolwatch" };

export default function Page() {
  // The filters live in the query string (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense fallback={<p aria-busy="true">Loading alerts…</p>}>
      <AlertsPage />
    </Suspense>
  );
}
