import { requestRefresh } from "@/lib/servers/request-refresh";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

// 202: the worker that owns the session re-lists; the result arrives as a snapshot event.
export const POST = withTeam<{ id: string }>(async ({ ctx, params }) => Response.json(await requestRefresh(ctx, { serverId: params.id }), { status: 202 }));
