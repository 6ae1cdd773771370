import { diffSnapshots } from "../../../../../../lib/history/diff-snapshots";
import { route, searchParams, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// ?from=<snapshot id>&to=<snapshot id>; defaults: the previous snapshot → the latest.
export const GET = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return diffSnapshots(ctx, (await params).id, searchParams(request));
});
