import { z } from "zod";
import { switchTeam } from "../../../../../lib/auth/teams";
import { getDb } from "../../../../../lib/db";
import { AppError } from "../../../../../lib/errors";
import { invalidInput } from "../../../../../lib/validation";
import { readJson, route } from "../../../../_lib/http";
import { getSignedInUser } from "../../../../_lib/request-context";
import { sessionToken } from "../../../../_lib/session-token";

export const dynamic = "force-dynamic";

const Body = z.object({ teamId: z.string().uuid("teamId must be a team id") });

// Switch the session's active team (only to a team the user belongs to; otherwise 404).
export const POST = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  const parsed = Body.safeParse(await readJson(request));
  if (!parsed.success) throw invalidInput(parsed.error);
  const token = await sessionToken(request);
  if (!token) throw new AppError("UNAUTHENTICATED", "No session");
  await switchTeam(getDb(), user.userId, token, parsed.data.teamId);
  return { activeTeamId: parsed.data.teamId };
});
