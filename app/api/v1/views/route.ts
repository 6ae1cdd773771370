import { createView, listViews } from "@/lib/views/views";
import { readJson } from "@/app/_lib/http";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

export const GET = withTeam(async ({ ctx }) => ({ items: await listViews(ctx) }));

export const POST = withTeam(async ({ ctx, request }) => Response.json(await createView(ctx, await readJson(request)), { status: 201 }));
