import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { GET as listAlerts } from "../api/v1/alerts/route";
import { GET as listServers } from "../api/v1/servers/route";

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
  let body = Buffer.from(await response.arrayBuffer());
  const out: Record<string, string | string[]> = { ...API_RESPONSE_HEADERS, vary: "Accept-Encoding" };
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  // As Next does for every response a client accepts gzip for (browsers do); the fastest level,
  // since JSON compresses well anyway and this CPU is what the direct path exists to save.
  if (acceptsGzip(req.headers["accept-encoding"])) {
    body = await gzip(body, { level: zlib.constants.Z_BEST_SPEED });
    out["content-encoding"] = "gzip";
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  out["content-length"] = String(body.length);
  res.writeHead(response.status, out);
  res.end(body);
}
