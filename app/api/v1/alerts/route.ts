import { listAlerts } from "@/lib/alerts/list-alerts";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// ?status=open,acknowledged&severity=&kind=&serverId=&toolName=&limit=&cursor= — newest first.
// Also served straight from server.ts (app/_lib/direct-routes.ts).
export const GET = withTeam(({ ctx, searchParams }) => listAlerts(ctx, searchParams));
