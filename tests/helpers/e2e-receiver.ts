import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on 127.0.0.1 for e2e tests: answers 200 and keeps every request's headers
// and raw body (signatures are over the exact bytes, so the body is never re-serialised).
export type Received = { headers: http.IncomingHttpHeaders; rawBody: string; at: number };

export type Receiver = {
  url: string;
  received: Received[];
  /** Resolves with the first request `match` accepts, waiting up to `timeoutMs`. */
  waitFor(match: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
};

export async function startReceiver(path = "/hooks/toolwatch"): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    async waitFor(match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = received.find(match);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no matching webhook delivery within ${timeoutMs} ms (got ${received.length})`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
