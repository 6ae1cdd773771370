import { listCacheEntries } from "../../../../lib/cache/list-cache-entries";
import { route, searchParams } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return listCacheEntries(ctx, searchParams(request));
});
