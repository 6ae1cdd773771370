import { cancelInvitation, describeInvitation } from "@/lib/auth/invitations";
import { getDb } from "@/lib/db";
import { withPublic, withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// PUBLIC to whoever holds the link: team name, invited email, role, expiry — nothing else.
export const GET = withPublic<{ id: string }>(({ params }) => describeInvitation(getDb(), params.id));

export const DELETE = withTeam<{ id: string }>(async ({ ctx, params }) => {
  await cancelInvitation(ctx, params.id);
  return new Response(null, { status: 204 });
});
