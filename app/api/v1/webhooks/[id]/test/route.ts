import { sendTestWebhook } from "@/lib/webhooks/send-test";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// 202: queued; the worker sends it. The delivery log shows the outcome.
export const POST = withTeam<{ id: string }>(async ({ ctx, params }) => Response.json(await sendTestWebhook(ctx, params.id), { status: 202, headers: { "Cache-Control": "no-store" } }));
