import { deleteView, getView, updateView } from "../../../../../lib/views/views";
import { readJson, route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return getView(ctx, (await params).id);
});

export const PATCH = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return updateView(ctx, (await params).id, await readJson(request));
});

export const DELETE = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  await deleteView(ctx, (await params).id);
  return new Response(null, { status: 204 });
});
