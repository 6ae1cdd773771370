import { getWebhook } from "../../../../../lib/webhooks/list-webhooks";
import { deleteWebhook, updateWebhook } from "../../../../../lib/webhooks/save-webhook";
import { readJson, route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: IdParams) => getWebhook(await getRequestContext(request), (await params).id));

// With `rotateSecret: true` the response carries the new secret, this once.
export const PATCH = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return updateWebhook(ctx, (await params).id, await readJson(request));
});

export const DELETE = route(async (request: Request, { params }: IdParams) => {
  await deleteWebhook(await getRequestContext(request), (await params).id);
  return new Response(null, { status: 204 });
});
