import { revokeApiKey } from "@/lib/auth/api-keys";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const DELETE = withTeam<{ id: string }>(({ ctx, params }) => revokeApiKey(ctx, params.id));
