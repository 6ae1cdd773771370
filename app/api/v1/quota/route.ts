import { getTeamQuota } from "@/lib/tenants/team-quota";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** The current team's quota (servers, minimum poll interval, listings per minute) and usage. */
export const GET = withTeam(({ ctx }) => getTeamQuota(ctx));
