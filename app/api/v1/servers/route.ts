import { listServers } from "../../../../lib/servers/list-servers";
import { createServer } from "../../../../lib/servers/save-server";
import { getServerDetail } from "../../../../lib/servers/get-server-detail";
import { stdioPermissionFor } from "../../../../lib/servers/stdio-policy";
import { readJson, route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return { items: await listServers(ctx) };
});

export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  const { id } = await createServer(ctx, await readJson(request), stdioPermissionFor(ctx));
  return Response.json(await getServerDetail(ctx, id), { status: 201 });
});
