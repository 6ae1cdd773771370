import { revokeShareLink } from "../../../../../lib/views/share-links";
import { route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

type TokenParams = { params: Promise<{ token: string }> };

/** Revokes a share link, named by its token or by its id (from GET /api/v1/views/{id}/shares). */
export const DELETE = route(async (request: Request, { params }: TokenParams) => {
  const ctx = await getRequestContext(request);
  await revokeShareLink(ctx, (await params).token);
  return new Response(null, { status: 204 });
});
