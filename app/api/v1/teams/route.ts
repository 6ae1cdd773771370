import { createOwnTeam, listTeamsOf } from "@/lib/auth/teams";
import { getDb } from "@/lib/db";
import { readJson } from "@/app/_lib/http";
import { withUser } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withUser(async ({ user }) => ({ items: await listTeamsOf(getDb(), user.userId) }));

// Any signed-in person may create a team; they become its owner and it becomes their active team.
export const POST = withUser(async ({ user, request }) => Response.json(await createOwnTeam(getDb(), user, await readJson(request)), { status: 201 }));
