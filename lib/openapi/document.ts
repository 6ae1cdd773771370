// The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the handlers validate with
// (lib/openapi/operations.ts) and the response schemas (lib/openapi/responses.ts).
import { HTTP_STATUS } from "@/lib/errors";
import { PageParams } from "@/lib/pagination";
import { SchemaCollector, type JsonSchema } from "./json-schema";
import { OPERATIONS, type Operation } from "./operations";
import { ErrorEnvelope } from "./responses";

const DESCRIPTION = `The REST API of Toolwatch. Every answer is JSON; every error is \`{"error":{"code","message","details?"}}\` with
one of the codes below. See docs/api.md.

**Authentication**: an API key (\`Authorization: Bearer tw_…\`, minted per team with a role) or a
browser session cookie. Operations marked session-only refuse API keys.

**Pagination**: every list that can grow takes \`limit\` (1–500, default 100) and \`cursor\`, and answers
\`{ items, nextCursor }\`; pass \`nextCursor\` back as \`cursor\` until it is null. A cursor is opaque and
only valid for the list (and sort) that issued it: anything else is a 400.

**Rate limits** (shared by all web processes): per API key 600/min (\`TOOLWATCH_API_RATE_PER_KEY\`), per
team for all its keys together 3,000/min (\`TOOLWATCH_API_RATE_PER_TEAM\`), per signed-in person
1,200/min (\`TOOLWATCH_API_RATE_PER_USER\`). Beyond a limit: 429 \`RATE_LIMITED\` with \`Retry-After\`
(seconds). Counted answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`,
\`RateLimit-Policy\` and the same as \`X-RateLimit-*\`. Unauthenticated requests get their 401 first;
the public share endpoint is not counted.

**Error codes**: ${Object.entries(HTTP_STATUS)
  .map(([code, status]) => `\`${code}\` ${status}`)
  .join(", ")}, \`INTERNAL\` 500.`;

const ERROR_RESPONSES: Record<string, string> = {
  "400": "INVALID_INPUT: a parameter or the body is invalid (details.fields names them)",
  "401": "UNAUTHENTICATED: no or an invalid API key / session",
  "403": "FORBIDDEN: the caller's role may not do this",
  "404": "NOT_FOUND: no such resource in the caller's team",
  "409": "CONFLICT: the write conflicts with the current state",
  "429": "RATE_LIMITED: too many requests",
  "500": "INTERNAL: an unexpected error (reveals nothing)",
  "503": "UNAVAILABLE: the database or a dependency is unavailable",
};

const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"] as const;

function errorResponseRef(status: string) {
  return { $ref: `#/components/responses/Error${status}` };
}

function components(collector: SchemaCollector) {
  const error = collector.convert(ErrorEnvelope, "output");
  const responses: Record<string, unknown> = {};
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    responses[`Error${status}`] = {
      description,
      content: { "application/json": { schema: error } },
      ...(status === "429"
        ? {
            headers: {
              "Retry-After": { description: "Seconds until a request may succeed", schema: { type: "integer" } },
              ...Object.fromEntries(RATE_HEADERS.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
            },
          }
        : {}),
    };
  }
  const headers = {
    "RateLimit-Limit": { description: "Requests allowed in the window closest to refusing", schema: { type: "integer" } },
    "RateLimit-Remaining": { description: "Requests left in that window", schema: { type: "integer" } },
    "RateLimit-Reset": { description: "Seconds until that window ends", schema: { type: "integer" } },
    "RateLimit-Policy": { description: 'The limit and window, e.g. "600;w=60"', schema: { type: "string" } },
  };
  const parameters = {
    Limit: { name: "limit", in: "query", required: false, description: "Page size", schema: collector.convert(PageParams.limit, "input") },
    Cursor: { name: "cursor", in: "query", required: false, description: "Opaque: the previous page's nextCursor", schema: collector.convert(PageParams.cursor, "input") },
  };
  const securitySchemes = {
    apiKey: { type: "http", scheme: "bearer", description: "A team API key: `Authorization: Bearer tw_…`" },
    session: { type: "apiKey", in: "cookie", name: "toolwatch.session_token", description: "The browser session (`__Secure-toolwatch.session_token` over https)" },
  };
  return { responses, headers, parameters, securitySchemes };
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string", minLength: 1 } }));
}

function queryParameters(op: Operation, collector: SchemaCollector) {
  if (!op.query) return [];
  const schema = collector.convert(op.query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  const params: unknown[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (op.paged && (name === "limit" || name === "cursor")) continue;
    params.push({ name, in: "query", required: schema.required?.includes(name) ?? false, schema: property });
  }
  if (op.paged) params.push({ $ref: "#/components/parameters/Limit" }, { $ref: "#/components/parameters/Cursor" });
  return params;
}

function security(op: Operation) {
  if (op.access === "public") return [];
  if (op.access === "session") return [{ session: [] }];
  return [{ apiKey: [] }, { session: [] }];
}

function operationObject(op: Operation, collector: SchemaCollector) {
  const status = String(op.status ?? 200);
  const success =
    op.status === 303
      ? { description: "Redirect (Location header)" }
      : op.response === undefined
      ? { description: "Done; no body" }
      : {
          description: "Success",
          headers: op.access === "public" ? undefined : Object.fromEntries(RATE_HEADERS.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
          content: { "application/json": { schema: collector.convert(op.response, "output") } },
        };
  const errors = ["400", "500", "503"];
  if (op.access !== "public") errors.push("401", "403", "429");
  if (op.path.includes("{")) errors.push("404");
  if (op.method !== "GET") errors.push("409");
  const parameters = [...pathParameters(op.path), ...queryParameters(op, collector)];
  return {
    operationId: `${op.method.toLowerCase()}${op.path.replace(/\{(\w+)\}/g, "By-$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    tags: [op.tag],
    summary: op.summary,
    security: security(op),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: op.bodyRequired ?? true, content: { "application/json": { schema: collector.convert(op.body, "input") } } } } : {}),
    responses: { [status]: success, ...Object.fromEntries(errors.sort().map((s) => [s, errorResponseRef(s)])) },
    ...(op.paged ? { "x-paginated": { cursorParam: "cursor", limitParam: "limit", nextCursorField: "nextCursor" } } : {}),
  };
}

export const API_PREFIX = "/api/v1";

/** The whole document; `serverUrl` is where this instance serves the API (omitted: relative). */
export function buildOpenApiDocument(serverUrl?: string): Record<string, unknown> {
  const collector = new SchemaCollector();
  const shared = components(collector);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const item = (paths[API_PREFIX + op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, collector);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Toolwatch API", version: "1", description: DESCRIPTION, license: { name: "See the repository" } },
    servers: [{ url: serverUrl ?? "/" }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: { schemas: collector.components, ...shared },
  };
}
