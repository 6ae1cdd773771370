import { changeMemberRole, removeMember } from "../../../../../lib/auth/members";
import { readJson, route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const PATCH = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return changeMemberRole(ctx, (await params).id, await readJson(request));
});

export const DELETE = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  await removeMember(ctx, (await params).id);
  return new Response(null, { status: 204 });
});
