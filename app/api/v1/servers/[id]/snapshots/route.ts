import { listSnapshots } from "@/lib/servers/list-snapshots";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam<{ id: string }>(({ ctx, params, searchParams }) => listSnapshots(ctx, params.id, searchParams));
