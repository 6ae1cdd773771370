import { readDocsAsset } from "@/lib/openapi/docs-page";
import { route } from "@/app/_lib/http";

export const dynamic = "force-dynamic";

/** Scalar's browser bundle (node_modules/@scalar/api-reference/dist/browser), JavaScript files only. */
export const GET = route(async (_request: Request, { params }: { params: Promise<{ file: string[] }> }) => {
  const body = await readDocsAsset((await params).file);
  return new Response(body, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
});
