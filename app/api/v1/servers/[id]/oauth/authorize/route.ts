import { startAuthorization } from "@/lib/oauth/authorization-flow";
import { publicBaseUrl } from "@/app/_lib/http";
import { withUserInTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// An admin's Authorize: the provider's authorization URL, for the browser to navigate to.
export const POST = withUserInTeam<{ id: string }>(({ ctx, user, params, request }) =>
  startAuthorization(ctx, params.id, { userId: user.userId, sessionToken: user.sessionToken }, publicBaseUrl(request)),
);
