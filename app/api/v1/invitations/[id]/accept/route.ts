import { acceptInvitation } from "@/lib/auth/accept-invitation";
import { getDb } from "@/lib/db";
import { withUser } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// The signed-in person joins the team (the session's cookie names them to better-auth).
export const POST = withUser<{ id: string }>(({ request, params }) => acceptInvitation(getDb(), request.headers, params.id));
