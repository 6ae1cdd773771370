import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addHttpServer, apiOnly, createTeam, ok, signUp, type Account } from "@/tests/helpers/e2e-accounts";
import { startProduct, type Product } from "@/tests/helpers/e2e-product";
import { freePort, startProcess, type Proc } from "@/tests/helpers/processes";

// Issue 12: GET /api/v1/servers and /api/v1/alerts are served by their handlers straight from the
// Node server (app/_lib/direct-routes.ts). The same requests sent to a second web process of the
// same product with TOOLWATCH_DIRECT_ROUTES=0 (everything through Next) must get the same
// answer: status, body and every header but the ones that are per response (date, request id,
// rate-limit counters) or framing (Next streams gzip chunked, the direct path sends a length).
const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-remaining", "ratelimit-reset"]);
// Next's Vary also names its router headers (rsc, next-router-*), which mean nothing for JSON.
const varyTokens = (value: string | undefined) => (value ?? "").split(",").map((t) => t.trim()).filter((t) => t && t !== "rsc" && !t.startsWith("next-router"));

describe("the fleet list and alert list served directly answer exactly as through Next", () => {
  let product: Product;
  let viaNext: Proc;
  let nextUrl: string;
  let owner: Account;
  let key: string;
  let strangerKey: string;

  beforeAll(async () => {
    product = await startProduct();
    const port = await freePort();
    nextUrl = `http://127.0.0.1:${port}`;
    viaNext = await startProcess("server.ts", { ...product.env, PORT: String(port), TOOLWATCH_DIRECT_ROUTES: "0" }, /Toolwatch is ready at/);
    owner = await signUp(await apiOnly(product.baseUrl), "direct");
    await createTeam(owner, "direct");
    for (const name of ["alpha", "beta", "gamma"]) await addHttpServer(owner, name, `http://127.0.0.1:9/mcp/${name}`, { tags: ["env:prod"], enabled: false });
    key = ((await ok(owner, "POST", "/api/v1/keys", { name: "reader", role: "viewer" })) as { key: string }).key;
    const stranger = await signUp(await apiOnly(product.baseUrl), "stranger");
    await createTeam(stranger, "elsewhere");
    await addHttpServer(stranger, "theirs", "http://127.0.0.1:9/mcp/theirs", { enabled: false });
    strangerKey = ((await ok(stranger, "POST", "/api/v1/keys", { name: "reader", role: "viewer" })) as { key: string }).key;
  });
  afterAll(async () => {
    await viaNext?.stop();
    await product?.stop();
  });

  async function both(path: string, headers: Record<string, string>) {
    const get = async (base: string) => {
      const res = await fetch(new URL(path, base), { headers });
      const kept: Record<string, unknown> = Object.fromEntries([...res.headers].filter(([name]) => !PER_RESPONSE.has(name)));
      kept.vary = varyTokens(res.headers.get("vary") ?? undefined);
      return { status: res.status, body: await res.text(), headers: kept };
    };
    return { direct: await get(product.baseUrl), next: await get(nextUrl) };
  }

  const cases: Array<[string, string, () => Record<string, string>]> = [
    ["no credentials", "/api/v1/servers", () => ({})],
    ["a made-up key", "/api/v1/servers", () => ({ authorization: "Bearer tw_not_a_real_key" })],
    ["the fleet's first page", "/api/v1/servers", () => ({ authorization: `Bearer ${key}` })],
    ["filtered, sorted, one a page", "/api/v1/servers?tag=env:prod&sort=name&dir=desc&limit=1", () => ({ authorization: `Bearer ${key}` })],
    ["a bad sort", "/api/v1/servers?sort=nonsense", () => ({ authorization: `Bearer ${key}` })],
    ["a forged cursor", "/api/v1/servers?cursor=AAAA", () => ({ authorization: `Bearer ${key}` })],
    ["the alert list", "/api/v1/alerts", () => ({ authorization: `Bearer ${key}` })],
    ["alerts with a bad filter", "/api/v1/alerts?status=sideways", () => ({ authorization: `Bearer ${key}` })],
  ];

  it.each(cases)("%s: same status, body and headers", async (_label, path, headers) => {
    // fetch asks for gzip (as browsers do) and unpacks it: the body compared is the JSON itself.
    const { direct, next } = await both(path, headers());
    expect(direct.status).toBe(next.status);
    expect(direct.body).toBe(next.body);
    expect(direct.headers).toEqual(next.headers);
    // The headers next.config.js promises every API response, on the direct path too.
    expect(direct.headers).toMatchObject({
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
    });
  });

  it("without Accept-Encoding both answer uncompressed, with the same body", async () => {
    const plain = async (base: string) => {
      const res = await fetch(new URL("/api/v1/servers?sort=name", base), { headers: { authorization: `Bearer ${key}`, "accept-encoding": "identity" } });
      return { encoding: res.headers.get("content-encoding"), body: await res.text() };
    };
    const [direct, next] = [await plain(product.baseUrl), await plain(nextUrl)];
    expect(direct.encoding).toBeNull();
    expect(direct).toEqual(next);
  });

  it("a stranger's key sees only the stranger's server on the direct path", async () => {
    const res = await fetch(new URL("/api/v1/servers", product.baseUrl), { headers: { authorization: `Bearer ${strangerKey}` } });
    const body = (await res.json()) as { items: Array<{ name: string }>; total: number };
    expect(res.status).toBe(200);
    expect(body.items.map((s) => s.name)).toEqual(["theirs"]);
    expect(body.total).toBe(1);
  });

  it("a page session (cookie) reads the list on the direct path as the browser does", async () => {
    const res = await owner.request.get(new URL("/api/v1/servers?sort=name", product.baseUrl).toString());
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { items: Array<{ name: string }> }).items.map((s) => s.name)).toEqual(["alpha", "beta", "gamma"]);
  });
});
