import { createServer } from "@/lib/servers/create-server";
import { getServerDetail } from "@/lib/servers/get-server-detail";
import { listServerPageJson } from "@/lib/servers/list-servers";
import { readJson, sharedJsonResponse } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// ?tag=a,b&status=live,degraded&transport=stdio&q=git&sort=toolCount&dir=desc&limit=100&cursor=…
// → { items, nextCursor, total, byStatus, teamTotal, tags }. The page comes serialized and gzipped
// once per change (a cached entry), and is also served straight from server.ts (app/_lib/direct-routes.ts).
export const GET = withTeam(async ({ ctx, searchParams }) => sharedJsonResponse(await listServerPageJson(ctx, searchParams)));

// The reply is the new server as GET /api/v1/servers/{id} shows it.
export const POST = withTeam(async ({ ctx, request }) => {
  const { id } = await createServer(ctx, await readJson(request));
  return Response.json(await getServerDetail(ctx, id), { status: 201 });
});
