import { createView, listViews } from "../../../../lib/views/views";
import { readJson, route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return { items: await listViews(ctx) };
});

export const POST = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return Response.json(await createView(ctx, await readJson(request)), { status: 201 });
});
