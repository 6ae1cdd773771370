import { listServerPageJson } from "../../../../lib/servers/list-servers";
import { createServer } from "../../../../lib/servers/save-server";
import { getServerDetail } from "../../../../lib/servers/get-server-detail";
import { stdioPermissionFor } from "../../../../lib/servers/stdio-policy";
import { readJson, route, searchParams, sharedJsonResponse } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

// ?tag=a,b&status=live,degraded&transport=stdio&q=git&sort=toolCount&dir=desc&limit=100&cursor=…
// → { items, nextCursor, total, byStatus, teamTotal, tags }
export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return sharedJsonResponse(await listServerPageJson(ctx, searchParams(request)));
});

export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  const { id } = await createServer(ctx, await readJson(request), stdioPermissionFor(ctx));
  return Response.json(await getServerDetail(ctx, id), { status: 201 });
});
