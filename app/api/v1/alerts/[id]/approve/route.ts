import { approveAlert } from "@/lib/alerts/approve-alert";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// {"hash": the version the reviewer saw, "comment"?}; 409 with details.currentHash when stale.
export const POST = withTeam<{ id: string }>(async ({ ctx, params, request }) => approveAlert(ctx, params.id, await readJson(request)));
