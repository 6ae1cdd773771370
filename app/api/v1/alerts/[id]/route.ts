import { getAlert } from "@/lib/alerts/get-alert";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params }) => getAlert(ctx, params.id));
