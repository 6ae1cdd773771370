import { listAuditEvents } from "@/lib/audit-log/list-audit";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(({ ctx, searchParams }) => listAuditEvents(ctx, searchParams));
