import { deleteServer } from "@/lib/servers/delete-server";
import { getServerDetail } from "@/lib/servers/get-server-detail";
import { updateServer } from "@/lib/servers/update-server";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params }) => getServerDetail(ctx, params.id));

// The reply is the server as GET shows it.
export const PATCH = withTeam<{ id: string }>(async ({ ctx, params, request }) => {
  const { id } = await updateServer(ctx, { serverId: params.id, patch: await readJson(request) });
  return getServerDetail(ctx, id);
});

export const DELETE = withTeam<{ id: string }>(async ({ ctx, params }) => {
  await deleteServer(ctx, { serverId: params.id });
  return new Response(null, { status: 204 });
});
