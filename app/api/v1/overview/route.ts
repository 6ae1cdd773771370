import { getOverview } from "../../../../lib/overview/get-overview";
import { route, searchParams } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

// ?days=14&tz=Europe/Berlin → the team at a glance (lib/overview/overview-dto.ts)
export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return getOverview(ctx, searchParams(request));
});
