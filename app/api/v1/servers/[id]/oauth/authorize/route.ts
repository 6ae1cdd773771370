import { contextForPrincipal } from "../../../../../../../lib/auth/authenticate";
import { getDb } from "../../../../../../../lib/db";
import { loadEnv } from "../../../../../../../lib/env";
import { startAuthorization } from "../../../../../../../lib/oauth/authorization-flow";
import { requestOrigin, route, type IdParams } from "../../../../../../_lib/http";
import { getSignedInUser } from "../../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// An admin's Authorize: the provider's authorization URL, for the browser to navigate to.
export const POST = route(async (request: Request, { params }: IdParams) => {
  const user = await getSignedInUser(request);
  const ctx = await contextForPrincipal(getDb(), user);
  const baseUrl = loadEnv().TOOLWATCH_BASE_URL ?? requestOrigin(request);
  return startAuthorization(ctx, (await params).id, { userId: user.userId, sessionToken: user.sessionToken }, baseUrl);
});
