import { Suspense } from "react";
import { DiffPage } from "./DiffPage";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // DiffPage reads ?from=&to= with useSearchParams, which needs a Suspense boundary.
  return (
    <Suspense fallback={<p aria-busy="true">Loading diff…</p>}>
      <DiffPage id={id} />
    </Suspense>
  );
}
