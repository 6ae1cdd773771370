import { revokeShareLink } from "@/lib/views/share-links";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** Revokes a share link, named by its token or by its id (from GET /api/v1/views/{id}/shares). */
export const DELETE = withTeam<{ token: string }>(async ({ ctx, params }) => {
  await revokeShareLink(ctx, params.token);
  return new Response(null, { status: 204 });
});
