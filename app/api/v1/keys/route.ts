import { createApiKey, listApiKeys } from "../../../../lib/auth/api-keys";
import { readJson, route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => ({ items: await listApiKeys(await getRequestContext(request)) }));

// The response is the only time the key's secret is shown.
export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return Response.json(await createApiKey(ctx, await readJson(request)), { status: 201, headers: { "Cache-Control": "no-store" } });
});
