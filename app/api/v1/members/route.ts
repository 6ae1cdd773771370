import { listMembers } from "@/lib/auth/members";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(async ({ ctx }) => ({ items: await listMembers(ctx) }));
