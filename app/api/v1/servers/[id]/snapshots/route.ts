import { listSnapshots } from "../../../../../../lib/servers/list-snapshots";
import { route, searchParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await getRequestContext(request);
  return listSnapshots(ctx, (await params).id, searchParams(request));
});
