import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(async ({ ctx }) => ({ items: await listApiKeys(ctx) }));

// The response is the only time the key's secret is shown.
export const POST = withTeam(async ({ ctx, request }) => Response.json(await createApiKey(ctx, await readJson(request)), { status: 201, headers: { "Cache-Control": "no-store" } }));
