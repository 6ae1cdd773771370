import { createTeam, listTeamsOf, switchTeam } from "../../../../lib/auth/teams";
import { getDb } from "../../../../lib/db";
import { readJson, route } from "../../../_lib/http";
import { getSignedInUser } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  return { items: await listTeamsOf(getDb(), user.userId) };
});

// Any signed-in person may create a team; they become its owner and it becomes their active team.
export const POST = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  const db = getDb();
  const team = await createTeam(db, await readJson(request), { userId: user.userId, email: user.email }, { kind: "user", id: user.userId, label: user.email, role: "owner", instanceAdmin: user.instanceAdmin });
  await switchTeam(db, user.userId, user.sessionToken, team.id);
  return Response.json(team, { status: 201 });
});
