import { DOCS_HTML } from "@/lib/openapi/docs-page";

export const dynamic = "force-dynamic";

/** The API reference (Scalar) over GET /api/v1/openapi.json; public like the document it renders. */
export function GET(): Response {
  return new Response(DOCS_HTML, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
