import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const PATCH = withTeam<{ id: string }>(async ({ ctx, params, request }) => changeMemberRole(ctx, params.id, await readJson(request)));

export const DELETE = withTeam<{ id: string }>(async ({ ctx, params }) => {
  await removeMember(ctx, params.id);
  return new Response(null, { status: 204 });
});
