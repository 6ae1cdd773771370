import { diffSnapshots } from "@/lib/history/diff-snapshots";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// ?from=<snapshot id>&to=<snapshot id>; defaults: the previous snapshot → the latest.
export const GET = withTeam<{ id: string }>(({ ctx, params, searchParams }) => diffSnapshots(ctx, params.id, searchParams));
