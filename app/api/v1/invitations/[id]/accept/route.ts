import { acceptInvitation } from "../../../../../../lib/auth/accept-invitation";
import { getDb } from "../../../../../../lib/db";
import { route, type IdParams } from "../../../../../_lib/http";
import { getSignedInUser } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: IdParams) => {
  await getSignedInUser(request);
  return acceptInvitation(getDb(), request.headers, (await params).id);
});
