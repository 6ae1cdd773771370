import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { createWebhook } from "@/lib/webhooks/save-webhook";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(({ ctx }) => listWebhooks(ctx));

// The response is the only time the signing secret is shown.
export const POST = withTeam(async ({ ctx, request }) => Response.json(await createWebhook(ctx, await readJson(request)), { status: 201, headers: { "Cache-Control": "no-store" } }));
