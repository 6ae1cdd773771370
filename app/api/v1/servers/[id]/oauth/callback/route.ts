import { completeAuthorization } from "@/lib/oauth/authorization-flow";
import { publicBaseUrl } from "@/app/_lib/http";
import { withUserInTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// The provider sends the admin's browser back here (a top-level GET: the session cookie comes
// along). Success goes back to the server page with a note; a refused state is a 4xx.
export const GET = withUserInTeam<{ id: string }>(async ({ ctx, user, params, searchParams: q, request }) => {
  const callback = { code: q.code, state: q.state, iss: q.iss, error: q.error, error_description: q.error_description };
  const { serverId } = await completeAuthorization(ctx, params.id, { userId: user.userId, sessionToken: user.sessionToken }, callback);
  const location = `${publicBaseUrl(request).replace(/\/+$/, "")}/servers/${serverId}?oauth=authorized`;
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
});
