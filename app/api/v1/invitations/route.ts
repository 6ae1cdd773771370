import { createInvitation, listInvitations } from "../../../../lib/auth/invitations";
import { loadEnv } from "../../../../lib/env";
import { readJson, requestOrigin, route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => ({ items: await listInvitations(await getRequestContext(request)) }));

export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  const invitation = await createInvitation(ctx, await readJson(request));
  return Response.json({ ...invitation, url: new URL(invitation.path, loadEnv().TOOLWATCH_BASE_URL ?? requestOrigin(request)).toString() }, { status: 201 });
});
