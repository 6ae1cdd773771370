/**
 * Minimal node:http host for web-standard MCP handlers (`createMcpHandler().fetch`
 * and friends). The v2 server SDK only ships the fetch-shaped face; the Node
 * adapter lives in `@modelcontextprotocol/node`, which this project does not
 * depend on, so this file is the ~same 60 lines kept local.
 *
 * Binds 127.0.0.1 only and rejects foreign Host/Origin headers, because demo and
 * fixture servers run on developer machines where a browser tab could otherwise
 * reach them through DNS rebinding.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from "@modelcontextprotocol/server";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface HttpHost {
  /** Full MCP endpoint URL, e.g. `http://127.0.0.1:4312/mcp`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export const MCP_PATH = "/mcp";

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const body = hasBody ? await readBody(req) : undefined;
  // Uint8Array view: @types/node's Buffer is not assignable to DOM BodyInit.
  return new Request(url, { method: req.method, headers, body: body?.length ? new Uint8Array(body) : undefined, signal });
}

async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  if (!response.body) {
    res.end();
    return;
  }
  // Flush headers now: SSE responses (listen streams, legacy GET streams) may stay
  // open for minutes before their next frame and the client must see the 200 first.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // Reader cancelled because the client went away; nothing left to deliver.
  } finally {
    res.end();
  }
}

/**
 * Serve `handler` on 127.0.0.1:`port` (0 = pick a free port) at {@link MCP_PATH}.
 * Closing the client socket aborts the web Request's signal, which is how the SDK
 * learns that a `subscriptions/listen` stream was cancelled.
 */
export async function listenHttp(port: number, handler: FetchHandler, onError: (e: unknown) => void): Promise<HttpHost> {
  const hostnames = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  const server = createServer((req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    void (async () => {
      try {
        const request = await toWebRequest(req, abort.signal);
        if (new URL(request.url).pathname !== MCP_PATH) {
          await writeWebResponse(res, new Response("Not found", { status: 404 }));
          return;
        }
        const rejected = hostHeaderValidationResponse(request, hostnames) ?? originValidationResponse(request, origins);
        await writeWebResponse(res, rejected ?? (await handler(request)));
      } catch (error) {
        onError(error);
        if (!res.headersSent) res.writeHead(500).end("Internal server error");
        else res.end();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}${MCP_PATH}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parse the `PORT` env var (absent or empty = 0 = any free port). */
export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PORT?.trim();
  if (!raw) return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid PORT ${JSON.stringify(raw)}`);
  return port;
}

/**
 * The one line parents wait for (demo-fleet.ts, tests/fixtures/spawn-fixture.ts).
 * stdout carries nothing else; all logs go to stderr.
 */
export function announceReady(url: string): void {
  process.stdout.write(`READY ${url}\n`);
}
