import { getToolHistory } from "@/lib/history/tool-history";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string; name: string }>(({ ctx, params }) => getToolHistory(ctx, params.id, params.name));
