import { loadEnv } from "../../../../../../lib/env";
import { createShareLink } from "../../../../../../lib/views/share-links";
import { readJson, requestOrigin, route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** Body optional ({expiresAt?}); 201 with the token, shown this once. */
export const POST = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  const body = (await request.clone().text()) === "" ? {} : await readJson(request);
  const link = await createShareLink(ctx, (await params).id, body);
  const url = new URL(link.path, loadEnv().TOOLWATCH_BASE_URL ?? requestOrigin(request)).toString();
  return Response.json({ id: link.id, token: link.token, url, expiresAt: link.expiresAt }, { status: 201, headers: { "Cache-Control": "no-store" } });
});
