import { cancelInvitation, describeInvitation } from "../../../../../lib/auth/invitations";
import { getDb } from "../../../../../lib/db";
import { route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// Public to whoever holds the link: team name, invited email, role, expiry — nothing else.
export const GET = route(async (_request: Request, { params }: IdParams) => describeInvitation(getDb(), (await params).id));

export const DELETE = route(async (request: Request, { params }: IdParams) => {
  await cancelInvitation(await getRequestContext(request), (await params).id);
  return new Response(null, { status: 204 });
});
