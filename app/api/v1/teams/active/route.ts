import { switchActiveTeam } from "@/lib/auth/teams";
import { getDb } from "@/lib/db";
import { readJson } from "@/app/_lib/http";
import { withUser } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// Switch the session's active team (only to a team the user belongs to; otherwise 404).
export const POST = withUser(async ({ user, request }) => switchActiveTeam(getDb(), user, await readJson(request)));
