import { listWebhookDeliveries } from "../../../../../../lib/webhooks/list-deliveries";
import { route, searchParams, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: IdParams) =>
  listWebhookDeliveries(await getRequestContext(request), (await params).id, searchParams(request)),
);
