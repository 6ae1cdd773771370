import { buildOpenApiDocument } from "@/lib/openapi/document";

export const dynamic = "force-dynamic";

/**
 * PUBLIC, no credentials: the API's shape (paths, schemas, error codes, rate limits) is the same
 * for every instance and already in the source; it names no team, server, user or setting, so
 * nothing here is worth protecting, and clients and the docs page can read it before signing in.
 */
export function GET(): Response {
  return Response.json(buildOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
