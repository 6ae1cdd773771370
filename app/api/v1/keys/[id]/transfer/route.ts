import { transferApiKey } from "@/lib/auth/key-ownership";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** Hands a key to another member ({ memberId }): it then lives as long as their membership. */
export const POST = withTeam<{ id: string }>(async ({ ctx, params, request }) => transferApiKey(ctx, params.id, await readJson(request)));
