import { deleteView, getView, updateView } from "@/lib/views/views";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params }) => getView(ctx, params.id));

export const PATCH = withTeam<{ id: string }>(async ({ ctx, params, request }) => updateView(ctx, params.id, await readJson(request)));

export const DELETE = withTeam<{ id: string }>(async ({ ctx, params }) => {
  await deleteView(ctx, params.id);
  return new Response(null, { status: 204 });
});
