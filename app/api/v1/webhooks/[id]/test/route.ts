import { sendTestWebhook } from "../../../../../../lib/webhooks/send-test";
import { route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// 202: queued; the worker sends it. The delivery log shows the outcome.
export const POST = route(async (request: Request, { params }: IdParams) => {
  const delivery = await sendTestWebhook(await getRequestContext(request), (await params).id);
  return Response.json(delivery, { status: 202, headers: { "Cache-Control": "no-store" } });
});
