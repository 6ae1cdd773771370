import { bulkAcknowledgeAlerts } from "../../../../../lib/alerts/acknowledge-alert";
import { readJson, route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// Bulk: {"ids": [...], "comment"?} → {"acknowledged": [...], "skipped": [{"id", "reason"}]}.
export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return bulkAcknowledgeAlerts(ctx, await readJson(request));
});
