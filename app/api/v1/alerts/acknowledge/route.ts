import { bulkAcknowledgeAlerts } from "@/lib/alerts/acknowledge-alert";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// Bulk: {"ids": [...], "comment"?} → {"acknowledged": [...], "skipped": [{"id", "reason"}]}.
export const POST = withTeam(async ({ ctx, request }) => bulkAcknowledgeAlerts(ctx, await readJson(request)));
