import { SwitchTeamInput, switchTeam } from "../../../../../lib/auth/teams";
import { getDb } from "../../../../../lib/db";
import { invalidInput } from "../../../../../lib/validation";
import { readJson, route } from "../../../../_lib/http";
import { getSignedInUser } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// Switch the session's active team (only to a team the user belongs to; otherwise 404).
export const POST = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  const parsed = SwitchTeamInput.safeParse(await readJson(request));
  if (!parsed.success) throw invalidInput(parsed.error);
  await switchTeam(getDb(), user.userId, user.sessionToken, parsed.data.teamId);
  return { activeTeamId: parsed.data.teamId };
});
