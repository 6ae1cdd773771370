import { listCollisions } from "@/lib/collisions/list-collisions";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// ?limit=&cursor= — tool names two or more of the team's servers offer, by name.
export const GET = withTeam(({ ctx, searchParams }) => listCollisions(ctx, searchParams));
