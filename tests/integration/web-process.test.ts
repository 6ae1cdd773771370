import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIfNeeded } from "@/scripts/build-if-needed";
import { TEST_KEY } from "@/tests/helpers/factories";
import { freePort, startProcess, type Proc } from "@/tests/helpers/processes";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// The production web process as `npm start` runs it, with its output piped (JSON log lines):
// request ids on responses, and an orderly stop on SIGTERM.
describe("the web process", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-web-"));
  let web: Proc;
  let base: string;

  beforeAll(async () => {
    // Always through buildIfNeeded: it waits while another test file builds (they run two at a time).
    await buildIfNeeded((line) => console.log(`[web-process] ${line}`));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    web = await startProcess(
      "server.ts",
      { DATABASE_URL: testDatabaseUrl(), NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", TOOLWATCH_DATA_DIR: dir, TOOLWATCH_SECRET_KEY: TEST_KEY.toString("base64"), TOOLWATCH_DEMO: "0" },
      /Toolwatch is ready at/,
    );
  }, 600_000);

  afterAll(async () => {
    await web?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("logs JSON lines when its output is not a terminal; the ready line keeps its words", () => {
    const lines = web.output().trim().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, name: "web", msg: `Toolwatch is ready at ${base}`, url: base }));
  });

  it("answers every request with an X-Request-Id: the caller's if it is a plain token, else a new one", async () => {
    const own = await fetch(`${base}/api/v1/me`, { headers: { "x-request-id": "trace-1234.abc_DEF" } });
    expect(own.status).toBe(401);
    expect(own.headers.get("x-request-id")).toBe("trace-1234.abc_DEF");

    const fresh = await fetch(`${base}/login`);
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const odd = await fetch(`${base}/api/v1/me`, { headers: { "x-request-id": `${"x".repeat(65)}` } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const quoted = await fetch(`${base}/api/v1/me`, { headers: { "x-request-id": 'a"b' } });
    expect(quoted.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  // A CI failure: Playwright's request context reused a socket idle for ~5 s, just as Node's
  // default keepAliveTimeout closed it, and the POST was reset (read ECONNRESET).
  it("keeps an idle kept-alive connection open past Node's default 5 s, and says so", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; port: number; keepAlive: string }>((resolve, reject) => {
        const req = http.get(`${base}/login`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, port: req.socket?.localPort ?? -1, keepAlive: String(res.headers["keep-alive"]) }));
        });
        req.on("error", reject);
      });
    try {
      const first = await get();
      expect(first).toMatchObject({ status: 200, keepAlive: "timeout=65" });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect(second.status).toBe(200);
      expect(second.port).toBe(first.port); // the same connection, not a new one after a reset
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it("on SIGTERM answers the request it holds, stops accepting connections and exits 0", async () => {
    let sent!: () => void;
    const written = new Promise<void>((resolve) => (sent = resolve));
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = http.get(`${base}/login`, { agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("finish", sent);
      req.on("error", reject);
    });
    await written;
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server has taken the connection
    web.child.kill("SIGTERM");
    expect(await inFlight).toBe(200);
    expect(await web.exited).toBe(0);
    const messages = web.output().trim().split("\n").filter((l) => l.startsWith("{")).map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining(["SIGTERM: stopping web server; requests in flight get 10000 ms", "web server stopped"]));
    await expect(fetch(`${base}/login`)).rejects.toThrow();
  }, 30_000);
});
