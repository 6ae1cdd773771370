import { getServerDetail } from "../../../../../lib/servers/get-server-detail";
import { route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await getRequestContext(request);
  return getServerDetail(ctx, (await params).id);
});
