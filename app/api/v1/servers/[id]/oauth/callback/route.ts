import { contextForPrincipal } from "../../../../../../../lib/auth/authenticate";
import { getDb } from "../../../../../../../lib/db";
import { loadEnv } from "../../../../../../../lib/env";
import { completeAuthorization } from "../../../../../../../lib/oauth/authorization-flow";
import { requestOrigin, route, searchParams, type IdParams } from "../../../../../../_lib/http";
import { getSignedInUser } from "../../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// The provider sends the admin's browser back here (a top-level GET: the session cookie comes
// along). Success goes back to the server page with a note; a refused state is a 4xx.
export const GET = route(async (request: Request, { params }: IdParams) => {
  const user = await getSignedInUser(request);
  const ctx = await contextForPrincipal(getDb(), user);
  const query = searchParams(request);
  const { serverId } = await completeAuthorization(ctx, (await params).id, { userId: user.userId, sessionToken: user.sessionToken }, {
    code: query.code,
    state: query.state,
    iss: query.iss,
    error: query.error,
    error_description: query.error_description,
  });
  const baseUrl = loadEnv().TOOLWATCH_BASE_URL ?? requestOrigin(request);
  return new Response(null, { status: 303, headers: { Location: `${baseUrl.replace(/\/+$/, "")}/servers/${serverId}?oauth=authorized`, "Cache-Control": "no-store" } });
});
