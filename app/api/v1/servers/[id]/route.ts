import { getServerDetail } from "../../../../../lib/servers/get-server-detail";
import { deleteServer, updateServer } from "../../../../../lib/servers/save-server";
import { stdioPermissionFor } from "../../../../../lib/servers/stdio-policy";
import { readJson, route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return getServerDetail(ctx, (await params).id);
});

export const PATCH = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  const { id } = await updateServer(ctx, (await params).id, await readJson(request), stdioPermissionFor(ctx));
  return getServerDetail(ctx, id);
});

export const DELETE = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  await deleteServer(ctx, (await params).id);
  return new Response(null, { status: 204 });
});
