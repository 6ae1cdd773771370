import { listShareLinks } from "../../../../../../lib/views/share-links";
import { route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return { items: await listShareLinks(ctx, (await params).id) };
});
