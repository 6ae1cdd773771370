import { searchTeam } from "@/lib/search/search-team";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// ?q= (1–100 characters after trimming) — servers, current tools and alerts of the caller's team.
export const GET = withTeam(({ ctx, searchParams }) => searchTeam(ctx, searchParams));
