import { getSnapshot } from "@/lib/servers/get-snapshot";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params }) => getSnapshot(ctx, params.id));
