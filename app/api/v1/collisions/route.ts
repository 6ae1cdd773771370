import { listCollisions } from "../../../../lib/collisions/list-collisions";
import { route, searchParams } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

// ?limit=&cursor= — tool names two or more of the team's servers offer, by name.
export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return listCollisions(ctx, searchParams(request));
});
