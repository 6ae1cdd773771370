import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIfNeeded } from "@/scripts/build-if-needed";
import { TEST_KEY } from "@/tests/helpers/factories";
import { freePort, startProcess, type Proc } from "@/tests/helpers/processes";
import { parsePrometheusText, samplesOf, type Family } from "@/tests/helpers/prometheus-text";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// The web process as `npm start` runs it (production bundle): API and page requests, then its
// /metrics scraped and parsed strictly. Route labels must be templates, never raw paths.

const TOKEN = "web-metrics-token-integration-01";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe("the web process's /metrics", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-web-metrics-"));
  let web: Proc;
  let base: string;

  const get = (pathname: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${base}${pathname}`, { method, headers, redirect: "manual" });
  const metrics = async (): Promise<{ text: string; families: Map<string, Family> }> => {
    const res = await get("/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    const text = await res.text();
    return { text, families: parsePrometheusText(text) };
  };
  const count = (families: Map<string, Family>, labels: Record<string, string>) =>
    samplesOf(families, "toolwatch_http_request_duration_seconds", labels, "toolwatch_http_request_duration_seconds_count").reduce((sum, s) => sum + s.value, 0);

  beforeAll(async () => {
    // Builds only when the sources changed since the last build; the process bundles are remade.
    await buildIfNeeded((line) => console.log(`[metrics-web] ${line}`));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    web = await startProcess(
      "server.ts",
      {
        DATABASE_URL: testDatabaseUrl(),
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        TOOLWATCH_DATA_DIR: dir,
        TOOLWATCH_SECRET_KEY: TEST_KEY.toString("base64"),
        TOOLWATCH_DEMO: "0",
        TOOLWATCH_METRICS_TOKEN: TOKEN,
      },
      /Toolwatch is ready at/,
    );
  }, 600_000);
  afterAll(async () => {
    await web?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers 401 without the token, neither redirected to sign-in nor given a page", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-wrong-token" }, { cookie: "better-auth.session_token=x" }] as Record<string, string>[]) {
      const res = await get("/metrics", headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="toolwatch-metrics"');
      expect(await res.text()).not.toContain("toolwatch_");
    }
    expect((await get("/metrics", { authorization: `Bearer ${TOKEN}` }, "POST")).status).toBe(405);
  });

  it("serves Prometheus text with the token, outside the page proxy (no page CSP)", async () => {
    const res = await get("/metrics?x=1", { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("times requests by method, route template and status class, with no raw id anywhere", async () => {
    const serverId = randomUUID();
    expect((await get("/api/health")).status).toBe(200);
    expect((await get(`/api/v1/servers/${serverId}`)).status).toBe(401);
    expect((await get(`/api/v1/servers/${randomUUID()}/snapshots?limit=5`)).status).toBe(401);
    await (await get(`/servers/${randomUUID()}`)).text(); // a page (its sign-in check is the page's own)
    const unknown = await get(`/wp-login.php/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    await unknown.text(); // a request is timed when its response has been sent in full

    const { text, families } = await metrics();
    expect(families.get("toolwatch_http_request_duration_seconds")?.type).toBe("histogram");
    expect(count(families, { method: "GET", route: "/api/health", status_class: "2xx" })).toBeGreaterThanOrEqual(1);
    expect(count(families, { method: "GET", route: "/api/v1/servers/[id]", status_class: "4xx" })).toBe(1);
    expect(count(families, { method: "GET", route: "/api/v1/servers/[id]/snapshots", status_class: "4xx" })).toBe(1);
    expect(count(families, { method: "GET", route: "/servers/[id]" })).toBe(1);
    expect(count(families, { method: "GET", route: "other", status_class: "4xx" })).toBeGreaterThanOrEqual(1);
    // Scrapes themselves are not timed.
    expect(count(families, { route: "/metrics" })).toBe(0);
    expect(text).not.toContain(serverId);
    expect(text).not.toMatch(UUID);
    expect(text).not.toContain("wp-login");

    expect(samplesOf(families, "toolwatch_socketio_connected_clients")).toHaveLength(1);
    // The health check queried the database through the process's one pool: its counters show it.
    expect(samplesOf(families, "toolwatch_db_pool_connections", { pool: "main" })[0]?.value).toBeGreaterThanOrEqual(1);
    expect(samplesOf(families, "toolwatch_db_pool_idle_connections", { pool: "main" })).toHaveLength(1);
    expect(samplesOf(families, "toolwatch_db_pool_waiting_requests", { pool: "main" })).toHaveLength(1);
    expect(families.get("process_resident_memory_bytes")?.type).toBe("gauge");
  });
});
