import { getDb } from "@/lib/db";
import { setTeamQuota } from "@/lib/tenants/team-quota";
import { readJson } from "@/app/_lib/http";
import { withUser } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** Instance administrators: set a team's limits (null = back to the instance default). */
export const PATCH = withUser<{ id: string }>(async ({ user, params, request }) => setTeamQuota(getDb(), user, params.id, await readJson(request)));
