import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { GET as listAlerts } from "@/app/api/v1/alerts/route";
import { GET as listServers } from "@/app/api/v1/servers/route";
import { sharedBodyOf } from "./http";

// The fleet API's hottest reads, served by their own route handlers straight from the Node
// server (server.ts), without Next's routing and rendering pipeline around them.
//
// Why: at 50 concurrent clients the fleet list spent ~2.4 ms of CPU per request in Next's
// request handling around a handler that needs well under 1 ms (bench/RESULTS.md, issue 12),
// so p95 sat at 155–290 ms on this 2-core machine against a target of 100 ms. The handlers are
// the very same functions Next calls (auth, rate limits, validation, error envelope); only the
// wrapping differs, and the headers next.config.js gives /api responses are set here too (a
// test compares the two paths' headers: tests/e2e/direct-routes.test.ts).
type Handler = (request: Request) => Promise<Response>;

const DIRECT_GETS: ReadonlyMap<string, Handler> = new Map([
  ["/api/v1/servers", listServers],
  ["/api/v1/alerts", listAlerts],
]);

/** What next.config.js sends with every /api response (kept equal by the test above). */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

/** The handler for this request when it is one of the direct routes, else undefined (Next serves it). */
export function directRoute(req: IncomingMessage): Handler | undefined {
  if (req.method !== "GET" || !req.url) return undefined;
  const q = req.url.indexOf("?");
  return DIRECT_GETS.get(q === -1 ? req.url : req.url.slice(0, q));
}

const gzip = promisify(zlib.gzip);

const encode = (bytes: Buffer, compress: boolean) => (compress ? gzip(bytes, { level: zlib.constants.Z_BEST_SPEED }) : Promise.resolve(bytes));

// The bytes of a cached JSON text (a fleet-list page answers many requests of its team and query
// from one cached object): encoded and compressed once, kept as long as that object lives. The
// object is the cache entry of one team and query, so its bytes answer nobody else.
const encodings = new WeakMap<object, { plain: Buffer; gzip?: Promise<Buffer> }>();

function encodedOnce(shared: { readonly text: string }, compress: boolean): Promise<Buffer> {
  let known = encodings.get(shared);
  if (!known) encodings.set(shared, (known = { plain: Buffer.from(shared.text) }));
  if (!compress) return Promise.resolve(known.plain);
  return (known.gzip ??= encode(known.plain, true));
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    if (coding!.trim().toLowerCase() !== "gzip") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** Runs the handler on a Fetch Request made from the Node request and writes its Response back. */
export async function serveDirect(handler: Handler, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  let response: Response;
  try {
    response = await handler(new Request(new URL(req.url!, origin), { method: "GET", headers }));
  } catch {
    // route() turns every error into its envelope; this is only a broken adapter.
    response = Response.json({ error: { code: "INTERNAL", message: "Internal error" } }, { status: 500 });
  }
  const out: Record<string, string | string[]> = { ...API_RESPONSE_HEADERS, vary: "Accept-Encoding" };
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  // As Next does for every response a client accepts gzip for (browsers do); the fastest level,
  // since JSON compresses well anyway and this CPU is what the direct path exists to save.
  const compress = acceptsGzip(req.headers["accept-encoding"]);
  if (compress) out["content-encoding"] = "gzip";
  const shared = sharedBodyOf(response);
  const body = shared ? await encodedOnce(shared, compress) : await encode(Buffer.from(await response.arrayBuffer()), compress);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  out["content-length"] = String(body.length);
  res.writeHead(response.status, out);
  res.end(body);
}
