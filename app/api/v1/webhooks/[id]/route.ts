import { getWebhook } from "@/lib/webhooks/list-webhooks";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/save-webhook";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params }) => getWebhook(ctx, params.id));

// With `rotateSecret: true` the response carries the new secret, this once.
export const PATCH = withTeam<{ id: string }>(async ({ ctx, params, request }) => updateWebhook(ctx, params.id, await readJson(request)));

export const DELETE = withTeam<{ id: string }>(async ({ ctx, params }) => {
  await deleteWebhook(ctx, params.id);
  return new Response(null, { status: 204 });
});
