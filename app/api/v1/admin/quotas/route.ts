import { getDb } from "@/lib/db";
import { listTeamQuotas } from "@/lib/tenants/team-quota";
import { withUser } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** Instance administrators (signed in; never an API key): every team's quota and usage. */
export const GET = withUser(async ({ user }) => ({ items: await listTeamQuotas(getDb(), user) }));
