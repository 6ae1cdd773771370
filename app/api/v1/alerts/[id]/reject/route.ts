import { rejectAlert } from "@/lib/alerts/reject-alert";
import { readOptionalJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// The body is optional here ({"comment"}); one that is sent must be JSON.
export const POST = withTeam<{ id: string }>(async ({ ctx, params, request }) => rejectAlert(ctx, params.id, await readOptionalJson(request)));
