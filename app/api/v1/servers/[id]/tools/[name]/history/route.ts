import { getToolHistory } from "../../../../../../../../lib/history/tool-history";
import { route } from "../../../../../../../_lib/http";
import { getRequestContext } from "../../../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string; name: string }> }) => {
  const ctx = await getRequestContext(request);
  const { id, name } = await params;
  return getToolHistory(ctx, id, name);
});
