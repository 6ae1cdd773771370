import { createInvitation, listInvitations } from "@/lib/auth/invitations";
import { publicBaseUrl, readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(async ({ ctx }) => ({ items: await listInvitations(ctx) }));

export const POST = withTeam(async ({ ctx, request }) => {
  const invitation = await createInvitation(ctx, await readJson(request));
  return Response.json({ ...invitation, url: new URL(invitation.path, publicBaseUrl(request)).toString() }, { status: 201 });
});
