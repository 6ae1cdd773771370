import { Suspense } from "react";
import { HomePage } from "./HomePage";

export default function Page() {
  // HomePage reads the query string (old fleet bookmarks), which needs a Suspense boundary.
  return (
    <Suspense fallback={<p aria-busy="true">Loading…</p>}>
      <HomePage />
    </Suspense>
  );
}
