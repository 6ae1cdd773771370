import { DOCS_INIT_JS } from "@/lib/openapi/docs-page";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return new Response(DOCS_INIT_JS, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" } });
}
