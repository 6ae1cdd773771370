// Plain Fetch Responses (not NextResponse): these handlers also run outside Next, straight from
// the Node server (app/_lib/direct-routes.ts), where next/server cannot be imported as ESM.
import { loadEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { rootLogger } from "@/lib/logger";
import { withResponseHeaders } from "@/lib/rate-limit/response-headers";
import { assertStorableJson } from "@/lib/validation";

/**
 * Wraps a route handler: AppErrors become their status with a message; anything else is logged
 * with the request's id (server.ts sets x-request-id) and becomes a 500 that reveals nothing but
 * that id. Headers decided on the way (rate limits) go on the
 * response either way.
 */
export function route<A extends unknown[]>(fn: (...args: A) => Promise<unknown>) {
  return async (...args: A): Promise<Response> => {
    const outcome = await withResponseHeaders(() => fn(...args));
    const response = "value" in outcome ? toResponse(outcome.value) : errorResponse(outcome.error, requestIdOf(args[0]));
    return withHeaders(response, outcome.headers);
  };
}

function withHeaders(response: Response, headers: Headers): Response {
  if ([...headers.keys()].length === 0) return response;
  try {
    for (const [name, value] of headers) response.headers.set(name, value);
    return response;
  } catch {
    // An immutable Response (Response.redirect, a fetched one): copy it.
    const merged = new Headers(response.headers);
    for (const [name, value] of headers) merged.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
  }
}

function toResponse(body: unknown): Response {
  return body instanceof Response ? body : Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

function requestIdOf(request: unknown): string | undefined {
  return request instanceof Request ? (request.headers.get("x-request-id") ?? undefined) : undefined;
}

function errorResponse(error: unknown, requestId: string | undefined): Response {
  if (error instanceof AppError) {
    return Response.json({ error: { code: error.code, message: error.message, details: error.details } }, { status: error.httpStatus });
  }
  rootLogger().error({ requestId, err: error }, "unhandled API error");
  return Response.json({ error: { code: "INTERNAL", message: "Internal error", requestId } }, { status: 500 });
}

// Responses whose body is a cached JSON text (the same object for every request it answers):
// the direct routes compress such a body once and reuse the bytes (app/_lib/direct-routes.ts).
const sharedBodies = new WeakMap<Response, { readonly text: string }>();

/** A 200 JSON response (no-store) from a cached text; see sharedBodyOf. */
export function sharedJsonResponse(body: { readonly text: string }): Response {
  const response = new Response(body.text, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
  sharedBodies.set(response, body);
  return response;
}

/** The cached text a response was made from (sharedJsonResponse), if it was. */
export function sharedBodyOf(response: Response): { readonly text: string } | undefined {
  return sharedBodies.get(response);
}

export function searchParams(request: Request): Record<string, string> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  assertStorableJson(params, "query");
  return params;
}

/** The JSON body of a write request, or a 400 saying what is wrong with it. */
export async function readJson(request: Request, maxBytes = 1_000_000): Promise<unknown> {
  return parseJsonBody(request, await request.text(), maxBytes);
}

/** For writes whose body is optional (an empty body is undefined); a body that is sent must be JSON. */
export async function readOptionalJson(request: Request, maxBytes = 1_000_000): Promise<unknown> {
  const text = await request.text();
  return text === "" ? undefined : parseJsonBody(request, text, maxBytes);
}

function parseJsonBody(request: Request, text: string, maxBytes: number): unknown {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw new AppError("INVALID_INPUT", "Send the body as JSON with Content-Type: application/json");
  if (text.length > maxBytes) throw new AppError("INVALID_INPUT", `Body too large (${maxBytes / 1_000_000} MB at most)`);
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("INVALID_INPUT", "Body is not valid JSON");
  }
  assertStorableJson(body);
  return body;
}

/** The origin the browser used (Host header), not the address Next listens on. */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  const proto = request.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/** The base of links we hand out (invitations, share links, OAuth redirects): TOOLWATCH_BASE_URL, else the request's origin. */
export function publicBaseUrl(request: Request): string {
  return loadEnv().TOOLWATCH_BASE_URL ?? requestOrigin(request);
}
