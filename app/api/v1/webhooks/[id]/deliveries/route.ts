import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params, searchParams }) => listWebhookDeliveries(ctx, params.id, searchParams));
