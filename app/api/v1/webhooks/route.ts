import { listWebhooks } from "../../../../lib/webhooks/list-webhooks";
import { createWebhook } from "../../../../lib/webhooks/save-webhook";
import { readJson, route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => listWebhooks(await getRequestContext(request)));

// The response is the only time the signing secret is shown.
export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return Response.json(await createWebhook(ctx, await readJson(request)), { status: 201, headers: { "Cache-Control": "no-store" } });
});
