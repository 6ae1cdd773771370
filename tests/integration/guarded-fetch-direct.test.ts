import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch, type GuardedFetch } from "@/lib/discovery/node/guarded-fetch";

// The guarded fetch answers ordinary requests (a JSON-RPC POST, a GET) through undici's
// dispatcher API rather than its fetch (lib/discovery/node/guarded-fetch.ts, directRequest). What
// fetch did for us there must still hold, seen from a real server: redirects followed as fetch
// follows them, credentials not carried to another origin, no endless redirect loop, an event
// stream handed over as it comes, errors shaped as fetch shapes them.

type Seen = { path: string; method: string; body: string; authorization?: string };
const MIB = 1024 * 1024;

function startServer(onRequest: (req: http.IncomingMessage, res: http.ServerResponse, body: string, url: URL) => void): Promise<{ server: http.Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    res.on("error", () => undefined);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c)).on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://x");
      seen.push({ path: url.pathname, method: req.method!, body, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      onRequest(req, res, body, url);
    });
  });
  server.listen(0, "127.0.0.1");
  return once(server, "listening").then(() => ({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }));
}

let main: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  other = await startServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  main = await startServer((_req, res, _body, url) => {
    const to = url.searchParams.get("to");
    if (url.pathname.startsWith("/status/")) return void res.writeHead(Number(url.pathname.slice(8)), { location: to! }).end();
    if (url.pathname === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    if (url.pathname === "/sse-open") {
      // Answers a POST with an event stream that stays open after its one event.
      res.writeHead(200, { "content-type": "text/event-stream" });
      return void res.write('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    }
    if (url.pathname === "/sse-huge") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const line = Buffer.from(`data: ${"x".repeat(64 * 1024)}\n\n`);
      const pump = () => {
        while (!res.destroyed && res.write(line));
        if (!res.destroyed) res.once("drain", pump);
      };
      return void pump();
    }
    if (url.pathname === "/slow") return void setTimeout(() => res.end("late"), 5_000);
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
});
afterAll(async () => {
  for (const s of [main, other]) {
    s.server.closeAllConnections();
    await new Promise((resolve) => s.server.close(resolve));
  }
});

const fetches: GuardedFetch[] = [];
const guarded = (maxResponseBytes = 16 * MIB) => {
  const f = createGuardedFetch({ blockPrivate: false, maxResponseBytes });
  fetches.push(f);
  return f;
};
afterEach(async () => {
  await Promise.all(fetches.splice(0).map((f) => f.close()));
  main.seen.length = 0;
  other.seen.length = 0;
});

const post = { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer s3cret" }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };

describe("redirects on the direct path", () => {
  it("307 re-sends the POST with its body; 303 and a POST's 302 become a GET without one", async () => {
    const f = guarded();
    const r307 = await f(`${main.base}/status/307?to=/target`, post);
    expect([r307.status, r307.redirected, r307.url]).toEqual([200, true, `${main.base}/target`]);
    expect(main.seen.at(-1)).toMatchObject({ path: "/target", method: "POST", body: post.body });
    for (const code of [303, 302]) {
      await f(`${main.base}/status/${code}?to=/target`, post);
      expect(main.seen.at(-1)).toMatchObject({ path: "/target", method: "GET", body: "" });
    }
  });

  it("keeps the Authorization header on its own origin and drops it when the redirect leaves it", async () => {
    const f = guarded();
    await f(`${main.base}/status/307?to=/target`, post);
    expect(main.seen.at(-1)!.authorization).toBe("Bearer s3cret");
    const res = await f(`${main.base}/status/307?to=${encodeURIComponent(`${other.base}/elsewhere`)}`, post);
    expect(await res.json()).toEqual({ ok: true });
    expect(other.seen).toEqual([{ path: "/elsewhere", method: "POST", body: post.body }]);
  });

  it("with redirect 'manual' (how the MCP SDK calls it) hands the 3xx back untouched and asks nothing more", async () => {
    const res = await guarded()(`${main.base}/status/302?to=/target`, { ...post, redirect: "manual" });
    expect([res.status, res.headers.get("location"), res.redirected]).toEqual([302, "/target", false]);
    expect(main.seen.map((s) => s.path)).toEqual(["/status/302"]);
  });

  it("refuses a redirect to one of fetch's bad ports (IRC, SMTP…) as fetch does, before connecting", async () => {
    const error = await guarded()(`${main.base}/status/307?to=${encodeURIComponent("http://127.0.0.1:6667/irc")}`, post).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error & { cause?: Error }).cause?.message).toBe("bad port");
  });

  it("gives up on a redirect loop after 20 hops, as fetch does", async () => {
    const error = await guarded()(`${main.base}/loop`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    expect(main.seen.filter((s) => s.path === "/loop")).toHaveLength(21);
  });
});

describe("answers and failures on the direct path", () => {
  it("hands over an event-stream answer as it comes: the first event is readable while the stream stays open", async () => {
    const res = await guarded()(`${main.base}/sse-open`, post);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"result":{}');
    await reader.cancel();
  });

  it("caps an event-stream answer to a POST as it is read", async () => {
    const res = await guarded(MIB)(`${main.base}/sse-huge`, post);
    await expect(res.arrayBuffer()).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
  });

  it("rejects with the abort reason when the caller's signal fires, and with TypeError('fetch failed') and its cause when nothing listens", async () => {
    const aborted = await guarded()(`${main.base}/slow`, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("TimeoutError");
    const closed = await startServer(() => undefined);
    const port = (closed.server.address() as AddressInfo).port;
    await new Promise((resolve) => closed.server.close(resolve));
    const refused = await guarded()(`http://127.0.0.1:${port}/mcp`, post).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
  });
});
