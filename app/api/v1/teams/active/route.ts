import { z } from "zod";
import { switchTeam } from "../../../../../lib/auth/teams";
import { getDb } from "../../../../../lib/db";
import { invalidInput } from "../../../../../lib/validation";
import { readJson, route } from "../../../../_lib/http";
import { getSignedInUser } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

const Body = z.object({ teamId: z.string().uuid("teamId must be a team id") });

// Switch the session's active team (only to a team the user belongs to; otherwise 404).
export const POST = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  const parsed = Body.safeParse(await readJson(request));
  if (!parsed.success) throw invalidInput(parsed.error);
  await switchTeam(getDb(), user.userId, user.sessionToken, parsed.data.teamId);
  return { activeTeamId: parsed.data.teamId };
});
