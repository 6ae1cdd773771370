import { describeCaller } from "@/lib/auth/describe-caller";
import { getDb } from "@/lib/db";
import { withCaller } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// Who am I, in which team, with which role and permissions (the UI hides what the role may not do).
export const GET = withCaller(({ principal }) => describeCaller(getDb(), principal));
