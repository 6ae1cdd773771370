import { createServersBatch } from "@/lib/servers/create-servers-batch";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// Up to 1,000 bodies of POST /api/v1/servers, so a larger body than single writes allow.
const MAX_BATCH_BODY_BYTES = 10_000_000;

// {"servers": [ …bodies POST /api/v1/servers takes… ]} → 201 { created, items: [{index, id, name}] };
// any bad item → nothing created, { error: { …, details: { errors: [{index, message}] } } }.
export const POST = withTeam(async ({ ctx, request }) => Response.json(await createServersBatch(ctx, await readJson(request, MAX_BATCH_BODY_BYTES)), { status: 201 }));
