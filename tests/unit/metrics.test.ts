import { randomUUID } from "node:crypto";
import path from "node:path";
import { Counter, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "@/lib/env";
import { listAppRoutes } from "@/lib/metrics/node/app-routes";
import { isAuthorizedScrape, isMetricsRequest, startMetricsServer, type MetricsServer } from "@/lib/metrics/node/metrics-endpoint";
import { boundedLabel, lazyMetric, metricsRegistry } from "@/lib/metrics/registry";
import { createRouteMatcher, methodLabel, statusClass } from "@/lib/metrics/route-template";
import { countListing, errorCodeLabel } from "@/lib/metrics/worker-metrics";
import { parsePrometheusText, samplesOf } from "@/tests/helpers/prometheus-text";

// The pieces of /metrics that need no database: route templates, the token guard, label bounds,
// and the endpoint itself on a real port. Expected values are written out by hand.

describe("createRouteMatcher()", () => {
  const match = createRouteMatcher([
    "/",
    "/api/v1/servers",
    "/api/v1/servers/[id]",
    "/api/v1/servers/[id]/tools/[name]/history",
    "/api/v1/servers/batch",
    "/api/auth/[...all]",
    "/docs/[[...slug]]",
    "/_next/[...path]",
  ]);

  it("maps a path with an id to its template, never to the raw path", () => {
    const id = randomUUID();
    expect(match(`/api/v1/servers/${id}`)).toBe("/api/v1/servers/[id]");
    expect(match(`/api/v1/servers/${id}/tools/read_file/history?limit=5`)).toBe("/api/v1/servers/[id]/tools/[name]/history");
  });

  it("prefers a static segment over a dynamic one, as Next does", () => {
    expect(match("/api/v1/servers/batch")).toBe("/api/v1/servers/batch");
    expect(match("/api/v1/servers")).toBe("/api/v1/servers");
  });

  it("matches catch-alls (one or more segments) and optional catch-alls (zero or more)", () => {
    expect(match("/api/auth/sign-in/email")).toBe("/api/auth/[...all]");
    expect(match("/api/auth")).toBe("other");
    expect(match("/docs")).toBe("/docs/[[...slug]]");
    expect(match("/docs/a/b")).toBe("/docs/[[...slug]]");
    expect(match("/_next/static/chunks/abc.js")).toBe("/_next/[...path]");
  });

  it("ignores the query, a trailing slash and doubled slashes; the root is /", () => {
    expect(match("/?x=1")).toBe("/");
    expect(match("/api/v1/servers/")).toBe("/api/v1/servers");
    expect(match("//api//v1/servers#top")).toBe("/api/v1/servers");
  });

  it("puts every path no template matches under one label", () => {
    expect(match("/wp-admin/setup.php")).toBe("other");
    expect(match(`/api/v1/servers/${randomUUID()}/nothing`)).toBe("other");
    expect(match(`/${randomUUID()}`)).toBe("other");
  });
});

describe("listAppRoutes() on the real app directory", () => {
  const routes = listAppRoutes(path.resolve(import.meta.dirname, "../../app"));

  it("lists pages and route handlers as URL templates", () => {
    for (const route of ["/", "/api/v1/servers", "/api/v1/servers/[id]", "/api/v1/servers/[id]/tools/[name]/history", "/api/auth/[...all]", "/servers/[id]", "/share/[token]", "/api/v1/openapi.json", "/_next/[...path]"]) {
      expect(routes).toContain(route);
    }
  });

  it("leaves out private folders and route groups, and has no duplicates", () => {
    expect(routes.filter((r) => /\/_(components|hooks|lib)|\(|\)|@/.test(r))).toEqual([]);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("maps a real request path through the real templates", () => {
    const match = createRouteMatcher(routes);
    expect(match(`/api/v1/views/${randomUUID()}/shares`)).toBe("/api/v1/views/[id]/shares");
    expect(match(`/servers/${randomUUID()}/tools/search`)).toBe("/servers/[id]/tools/[name]");
  });

  it("knows only Next's own files when the directory is missing (every other path counts as other)", () => {
    expect(listAppRoutes("/nonexistent/app")).toEqual(["/_next/[...path]"]);
  });
});

describe("labels stay bounded", () => {
  it("methodLabel() keeps the standard methods and folds the rest", () => {
    expect(["GET", "POST", "DELETE", "PROPFIND", "get", undefined].map(methodLabel)).toEqual(["GET", "POST", "DELETE", "other", "other", "other"]);
  });

  it("statusClass() gives the hundreds", () => {
    expect([200, 204, 301, 401, 404, 500, 503, 99, 600].map(statusClass)).toEqual(["2xx", "2xx", "3xx", "4xx", "4xx", "5xx", "5xx", "other", "other"]);
  });

  it("errorCodeLabel() keeps the worker's codes and standard JSON-RPC codes, folds server-chosen ones", () => {
    expect(errorCodeLabel("CONNECTION_REFUSED")).toBe("CONNECTION_REFUSED");
    expect(errorCodeLabel("JSONRPC_-32601")).toBe("JSONRPC_-32601");
    expect(errorCodeLabel("JSONRPC_-32042")).toBe("JSONRPC_OTHER");
    expect(errorCodeLabel("JSONRPC_123456")).toBe("JSONRPC_OTHER");
    expect(errorCodeLabel('bad "code"\n')).toBe("other");
  });

  it("boundedLabel() passes the first N values, then folds new ones into other", () => {
    const cap = boundedLabel(2);
    expect(["a", "b", "c", "a", "d", "b"].map(cap)).toEqual(["a", "b", "other", "a", "other", "b"]);
  });
});

describe("isAuthorizedScrape()", () => {
  const token = "s3cret-metrics-token-0123456789";

  it("lets any scrape through when no token is configured", () => {
    expect(isAuthorizedScrape(undefined, undefined)).toBe(true);
    expect(isAuthorizedScrape("Bearer whatever", undefined)).toBe(true);
  });

  it("asks for exactly 'Bearer <token>' when one is configured", () => {
    expect(isAuthorizedScrape(`Bearer ${token}`, token)).toBe(true);
    expect(isAuthorizedScrape(`bearer ${token}`, token)).toBe(true);
    expect(isAuthorizedScrape(undefined, token)).toBe(false);
    expect(isAuthorizedScrape("", token)).toBe(false);
    expect(isAuthorizedScrape(token, token)).toBe(false);
    expect(isAuthorizedScrape(`Basic ${token}`, token)).toBe(false);
    expect(isAuthorizedScrape(`Bearer ${token}x`, token)).toBe(false);
    expect(isAuthorizedScrape(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(isAuthorizedScrape(`Bearer ${token} extra`, token)).toBe(false);
  });

  it("recognises /metrics with or without a query, and nothing else", () => {
    expect(["/metrics", "/metrics?x=1", "/metrics/", "/metricsx", "/api/metrics", undefined].map(isMetricsRequest)).toEqual([true, true, false, false, false, false]);
  });
});

describe("the metrics settings (lib/env.ts)", () => {
  const env = (vars: Record<string, string>) => loadEnv({ NODE_ENV: "test", ...vars });
  it("takes a worker port in 1–65535 and a token of 16+ printable characters; both optional", () => {
    const unset = env({});
    expect(unset.TOOLWATCH_METRICS_TOKEN).toBeUndefined();
    expect(unset.TOOLWATCH_WORKER_METRICS_PORT).toBeUndefined();
    expect(env({ TOOLWATCH_WORKER_METRICS_PORT: "9464", TOOLWATCH_METRICS_TOKEN: "0123456789abcdef" })).toMatchObject({ TOOLWATCH_WORKER_METRICS_PORT: 9464, TOOLWATCH_METRICS_TOKEN: "0123456789abcdef" });
  });

  it("refuses a bad port or a weak token with a message naming the setting", () => {
    for (const port of ["0", "65536", "abc", "94.5"]) expect(() => env({ TOOLWATCH_WORKER_METRICS_PORT: port })).toThrow(/TOOLWATCH_WORKER_METRICS_PORT/);
    expect(() => env({ TOOLWATCH_METRICS_TOKEN: "short" })).toThrow(/at least 16 characters/);
    expect(() => env({ TOOLWATCH_METRICS_TOKEN: "has a space in it 0123" })).toThrow(/without spaces/);
  });
});

describe("lazyMetric()", () => {
  it("reuses a metric a second module copy already registered under the same name", () => {
    const first = lazyMetric("toolwatch_test_lazy_total", (name, registers) => new Counter({ name, help: "test", registers }));
    const second = lazyMetric("toolwatch_test_lazy_total", (name, registers) => new Counter({ name, help: "test", registers }));
    expect(second()).toBe(first());
    expect(metricsRegistry()).toBeInstanceOf(Registry);
  });
});

describe("the metrics endpoint on a real port", () => {
  const token = "unit-test-metrics-token-42";
  let server: MetricsServer;
  let url: string;

  beforeAll(async () => {
    server = await startMetricsServer({ port: 0, host: "127.0.0.1", token });
    url = `http://127.0.0.1:${server.port}`;
    countListing("poll", true);
    countListing("poll", false);
    countListing("connect", false);
  });
  afterAll(() => server?.close());

  it("answers 401 with a Bearer challenge without the token, or with a wrong one", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-wrong-token" }] as Record<string, string>[]) {
      const res = await fetch(`${url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="toolwatch-metrics"');
      expect(await res.text()).not.toContain("toolwatch_");
    }
  });

  it("serves parseable Prometheus text with the token", async () => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const families = parsePrometheusText(await res.text());
    expect(families.get("toolwatch_listings_total")?.type).toBe("counter");
    expect(samplesOf(families, "toolwatch_listings_total", { trigger: "poll" })[0]?.value).toBe(2);
    expect(samplesOf(families, "toolwatch_listings_total", { trigger: "connect" })[0]?.value).toBe(1);
    expect(samplesOf(families, "toolwatch_snapshots_recorded_total", { result: "changed" })[0]?.value).toBe(1);
    expect(samplesOf(families, "toolwatch_snapshots_recorded_total", { result: "unchanged" })[0]?.value).toBe(2);
  });

  it("refuses other methods (405) and other paths (404)", async () => {
    const post = await fetch(`${url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await fetch(`${url}/`)).status).toBe(404);
  });
});

describe("parsePrometheusText() is strict", () => {
  it("rejects a sample of an undeclared family and a malformed line", () => {
    expect(() => parsePrometheusText("x_total 1\n")).toThrow(/undeclared/);
    expect(() => parsePrometheusText("# HELP x_total h\n# TYPE x_total counter\nx_total{a=b} 1\n")).toThrow(/not a Prometheus/);
    expect(() => parsePrometheusText("# HELP x_total h\n# TYPE x_total counter\nx_total one\n")).toThrow(/bad sample value/);
  });

  it("reads NaN in any case, as Prometheus does (prom-client writes \"Nan\" for a gauge with no sample yet)", () => {
    const families = parsePrometheusText("# HELP g h\n# TYPE g gauge\ng Nan\n");
    expect(samplesOf(families, "g")[0]?.value).toBeNaN();
  });

  it("reads histogram series and escaped label values", () => {
    const families = parsePrometheusText('# HELP h_seconds h\n# TYPE h_seconds histogram\nh_seconds_bucket{le="+Inf",route="/a \\"b\\""} 3\nh_seconds_sum 1.5\nh_seconds_count 3\n');
    expect(samplesOf(families, "h_seconds", {}, "h_seconds_bucket")).toEqual([{ name: "h_seconds_bucket", labels: { le: "+Inf", route: '/a "b"' }, value: 3 }]);
    expect(samplesOf(families, "h_seconds", {}, "h_seconds_count")[0]?.value).toBe(3);
  });
});
