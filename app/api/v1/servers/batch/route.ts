import { createServersBatch } from "../../../../../lib/servers/create-servers-batch";
import { stdioPermissionFor } from "../../../../../lib/servers/stdio-policy";
import { readJson, route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// Up to 1,000 bodies of POST /api/v1/servers, so a larger body than single writes allow.
const MAX_BATCH_BODY_BYTES = 10_000_000;

// {"servers": [ …bodies POST /api/v1/servers takes… ]} → 201 { created, items: [{index, id, name}] };
// any bad item → nothing created, { error: { …, details: { errors: [{index, message}] } } }.
export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  const created = await createServersBatch(ctx, await readJson(request, MAX_BATCH_BODY_BYTES), stdioPermissionFor(ctx));
  return Response.json(created, { status: 201 });
});
