import { createShareLink } from "@/lib/views/share-links";
import { publicBaseUrl, readOptionalJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** Body optional ({expiresAt?}); 201 with the token, shown this once. */
export const POST = withTeam<{ id: string }>(async ({ ctx, params, request }) => {
  const link = await createShareLink(ctx, params.id, (await readOptionalJson(request)) ?? {});
  const url = new URL(link.path, publicBaseUrl(request)).toString();
  return Response.json({ id: link.id, token: link.token, url, expiresAt: link.expiresAt }, { status: 201, headers: { "Cache-Control": "no-store" } });
});
