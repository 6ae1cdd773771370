import { searchTeam } from "../../../../lib/search/search-team";
import { route, searchParams } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

// ?q= (1–100 characters after trimming) — servers, current tools and alerts of the caller's team.
export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return searchTeam(ctx, searchParams(request));
});
