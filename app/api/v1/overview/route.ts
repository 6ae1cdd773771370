import { getOverview } from "@/lib/overview/get-overview";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// ?days=14&tz=Europe/Berlin → the team at a glance (lib/overview/overview-dto.ts)
export const GET = withTeam(({ ctx, searchParams }) => getOverview(ctx, searchParams));
