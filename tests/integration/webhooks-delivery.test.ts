// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createHttpServer, createTeam, disableServers, expectStatus, signUp, type TestTeam } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTargetFetches, type TargetFetches } from "@/lib/discovery/node/guarded-fetch";
import { sealWebhookUrl } from "@/lib/webhooks/webhook-url";
import { enqueueAlertNotifications } from "@/lib/webhooks/enqueue";
import { verifyWebhookSignature } from "@/lib/webhooks/sign";
import { startWebhookDispatcher, type WebhookDispatcher } from "@/worker/webhook-dispatcher";
import { TEST_KEY, testDb, waitFor } from "@/tests/helpers/factories";
import { captureLogger } from "@/tests/helpers/capture-logger";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// The worker's dispatcher (pg-boss on the test database) in-process, delivering to a real HTTP
// receiver on 127.0.0.1 through the SSRF-guarded fetch: signatures, Slack bodies, retries with
// status codes, dead endpoints, timeouts, refused destinations, and two dispatchers at once.

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
/** Per path: the statuses to answer in turn (the last one repeats); "hang" never answers. */
const script = new Map<string, (number | "hang")[]>();
const hits = new Map<string, number>();
let receiver: http.Server;
let base: string;
let deadUrl: string;

let team: TestTeam;
let serverId: string;
let dispatcher: WebhookDispatcher;
let guardedFetch: TargetFetches;
const uniq = () => randomUUID().slice(0, 8);
const dispatcherLog = captureLogger();
const logLines = dispatcherLog.messages;

function startDispatcher() {
  return startWebhookDispatcher({
    databaseUrl: testDatabaseUrl(),
    db: testDb(),
    key: TEST_KEY,
    // Not about who may reach loopback (tests/integration/private-targets.test.ts is): every team may.
    targets: guardedFetch,
    policy: "all",
    retryLimit: 2, // three attempts in all
    retryDelaySeconds: 1,
    retryBackoff: false,
    timeoutMs: 1_500,
    pollingIntervalSeconds: 0.5,
    sweepIntervalMs: 2_000,
    log: dispatcherLog.logger,
  });
}

async function createHook(path: string, body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const res = await call("POST", "/api/v1/webhooks", { as: team.owner.caller, body: { name: `hook-${uniq()}`, url: `${base}${path}`, minSeverity: "info", ...body } });
  return expectStatus(res, 201, "create webhook").json;
}

async function raiseAlert(extra: Record<string, unknown> = {}) {
  const alert = await testDb().alert.create({
    data: {
      tenantId: team.id,
      serverId,
      kind: "suspicious_content",
      severity: "critical",
      title: "read_file now asks for ~/.ssh/id_rsa",
      toolName: "read_file",
      dedupeKey: uniq(),
      findings: [{ ruleId: "R9", severity: "critical", message: "instruction to read a private key" }],
      ...extra,
    },
  });
  await testDb().$transaction((tx) => enqueueAlertNotifications(tx, team.id, alert.id));
  return alert;
}

const deliveryOf = (webhookId: string) => testDb().webhookDelivery.findFirstOrThrow({ where: { webhookId }, orderBy: { createdAt: "desc" } });
const settled = (webhookId: string, timeoutMs = 20_000) =>
  waitFor(`delivery to ${webhookId} to settle`, () => deliveryOf(webhookId), (d) => d.status === "delivered" || d.status === "dead", timeoutMs);

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body });
      const n = hits.get(path) ?? 0;
      hits.set(path, n + 1);
      const plan = script.get(path) ?? [200];
      const status = plan[Math.min(n, plan.length - 1)]!;
      if (status === "hang") return; // never answers
      res.writeHead(status, { "content-type": "text/plain" }).end(status >= 400 ? `receiver says ${status}` : "ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // A port nothing listens on: bind one, then let it go.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/gone`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  team = await createTeam(await signUp("whd-owner"), "webhook-delivery");
  serverId = await createHttpServer(team, "Acme Tools");
  guardedFetch = createTargetFetches({ maxResponseBytes: 64 * 1024, isStreaming: () => false });
  dispatcher = await startDispatcher();
  expect(dispatcher.running).toBe(true);
});

// Every alert goes to every matching webhook of the team: each test starts with none.
beforeEach(async (context) => {
  await testDb().webhook.deleteMany({ where: { tenantId: team.id } });
  logLines.length = 0;
  context.onTestFailed(() => console.log(`dispatcher log:\n${logLines.join("\n")}`));
});

afterAll(async () => {
  await dispatcher?.stop();
  await guardedFetch?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  if (team) {
    await testDb().webhook.deleteMany({ where: { tenantId: team.id } });
    await disableServers(team);
  }
});

describe("webhook delivery through the worker's queue", () => {
  it("an alert is delivered once, signed: the receiver verifies the HMAC with the secret and a fresh timestamp", async () => {
    const hook = await createHook("/json");
    const alert = await raiseAlert();
    const delivery = await settled(hook.id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, statusCode: 200, lastError: null, event: "alert.opened" });
    expect(delivery.deliveredAt).toBeInstanceOf(Date);

    const got = received.filter((r) => r.path === "/json");
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["user-agent"]).toBe("Toolwatch-Webhook/1");
    expect(headers["x-toolwatch-event"]).toBe("alert.opened");
    expect(headers["x-toolwatch-delivery"]).toBe(delivery.id);
    const timestamp = headers["x-toolwatch-timestamp"] as string;
    const signature = headers["x-toolwatch-signature"] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature({ secret: hook.secret, body, timestamp, signature })).toBe(true);
    expect(verifyWebhookSignature({ secret: `${hook.secret}x`, body, timestamp, signature })).toBe(false);
    expect(verifyWebhookSignature({ secret: hook.secret, body: body.replace("critical", "low"), timestamp, signature })).toBe(false);
    expect(verifyWebhookSignature({ secret: hook.secret, body, timestamp, signature, nowSeconds: Number(timestamp) + 301 })).toBe(false);

    expect(JSON.parse(body)).toEqual({
      type: "alert.opened",
      id: delivery.id,
      createdAt: expect.any(String),
      team: { id: team.id, slug: team.slug },
      alert: {
        id: alert.id,
        kind: "suspicious_content",
        severity: "critical",
        status: "open",
        title: "read_file now asks for ~/.ssh/id_rsa",
        toolName: "read_file",
        server: { id: serverId, name: "Acme Tools" },
        url: `/alerts/${alert.id}`,
        findings: [{ ruleId: "R9", severity: "critical", message: "instruction to read a private key" }],
      },
    });
  });

  it("Slack format: {text, blocks} with severity, title, server; untrusted text escaped", async () => {
    const hook = await createHook("/slack", { format: "slack" });
    await raiseAlert({ title: "Rug pull <!channel> <https://evil.example|click>", toolName: "<@U0> & co" });
    expect(await settled(hook.id)).toMatchObject({ status: "delivered", statusCode: 200 });
    const got = received.filter((r) => r.path === "/slack");
    expect(got).toHaveLength(1);
    const body = JSON.parse(got[0]!.body) as { text: string; blocks: { type: string; text?: { text: string }; fields?: { text: string }[] }[] };
    expect(Object.keys(body).sort()).toEqual(["blocks", "text"]);
    expect(body.text).toContain("[CRITICAL]");
    expect(body.text).toContain("Rug pull &lt;!channel&gt; &lt;https://evil.example|click&gt;");
    expect(body.blocks[0]!.text!.text).toMatch(/CRITICAL/);
    expect(body.blocks[1]!.fields!.map((f) => f.text)).toEqual(["*Server*\nAcme Tools", "*Tool*\n&lt;@U0&gt; &amp; co", "*Status*\nopen", `*Team*\n${team.slug}`]);
    for (const raw of ["<!channel>", "<https://evil", "<@U0>"]) expect(got[0]!.body).not.toContain(raw);
    expect(got[0]!.headers["x-toolwatch-signature"]).toMatch(/^sha256=/);
  });

  it("a receiver answering 500, 500, then 200: three attempts, delivered; the log showed each failure's status code", async () => {
    script.set("/flaky", [500, 500, 200]);
    const hook = await createHook("/flaky");
    await raiseAlert();
    const seen: string[] = [];
    await waitFor("flaky delivery", async () => {
      const d = await deliveryOf(hook.id);
      const entry = `${d.status}/${d.attempts}/${d.statusCode}`;
      if (seen.at(-1) !== entry) seen.push(entry);
      return d;
    }, (d) => d.status === "delivered", 20_000);
    expect(seen).toEqual(expect.arrayContaining(["failed/1/500", "failed/2/500", "delivered/3/200"]));
    expect(hits.get("/flaky")).toBe(3);
    const log = expectStatus(await call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { as: team.owner.caller }), 200).json.items;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: "delivered", attempts: 3, statusCode: 200, lastError: null });
    // Every retry is signed afresh and keeps the delivery id.
    const ids = new Set(received.filter((r) => r.path === "/flaky").map((r) => r.headers["x-toolwatch-delivery"]));
    expect(ids.size).toBe(1);
  });

  it("a dead endpoint: retried, then dead, with the connection error in the log", async () => {
    const hook = await createHook("/unused");
    await testDb().webhook.update({ where: { id: hook.id }, data: sealWebhookUrl(TEST_KEY, deadUrl) });
    await raiseAlert();
    const delivery = await settled(hook.id);
    expect(delivery).toMatchObject({ status: "dead", attempts: 3, statusCode: null });
    expect(delivery.lastError).toMatch(/ECONNREFUSED/);
  });

  it("a receiver that never answers: each attempt times out; the last 4xx/5xx or timeout is kept", async () => {
    script.set("/hang", ["hang"]);
    script.set("/teapot", [418]);
    const hang = await createHook("/hang");
    const teapot = await createHook("/teapot");
    await raiseAlert();
    const [slow, refused] = await Promise.all([settled(hang.id, 30_000), settled(teapot.id)]);
    expect(slow).toMatchObject({ status: "dead", attempts: 3, statusCode: null });
    expect(slow.lastError).toMatch(/No response within 1.5 s/);
    expect(refused).toMatchObject({ status: "dead", attempts: 3, statusCode: 418 });
    // The status and its standard phrase; never the receiver's body ("receiver says 418").
    expect(refused.lastError).toBe("HTTP 418 I'm a Teapot");
  });

  it("a refused destination (metadata address saved behind the API's back) is dead at once, not retried", async () => {
    const hook = await createHook("/unused-2");
    await testDb().webhook.update({ where: { id: hook.id }, data: sealWebhookUrl(TEST_KEY, "http://169.254.169.254/latest/meta-data/") });
    await raiseAlert();
    const delivery = await settled(hook.id);
    expect(delivery).toMatchObject({ status: "dead", attempts: 1, statusCode: null });
    expect(delivery.lastError).toMatch(/metadata/);
  });

  it("send test: 202, then delivered with event \"test\", signed", async () => {
    const hook = await createHook("/test-button", { enabled: false });
    const res = expectStatus(await call("POST", `/api/v1/webhooks/${hook.id}/test`, { as: team.owner.caller }), 202);
    expect(res.json).toMatchObject({ event: "test", status: "pending", attempts: 0, alertId: null });
    expect(await settled(hook.id)).toMatchObject({ id: res.json.id, status: "delivered", attempts: 1, statusCode: 200 });
    const got = received.find((r) => r.path === "/test-button")!;
    expect(got.headers["x-toolwatch-event"]).toBe("test");
    expect(JSON.parse(got.body)).toMatchObject({ type: "test", id: res.json.id, team: { slug: team.slug }, alert: { severity: "critical" } });
    const { "x-toolwatch-timestamp": timestamp, "x-toolwatch-signature": signature } = got.headers as Record<string, string>;
    expect(verifyWebhookSignature({ secret: hook.secret, body: got.body, timestamp, signature })).toBe(true);
  });

  it("filters: minSeverity above the alert and disabled webhooks receive nothing", async () => {
    const high = await createHook("/only-high", { minSeverity: "high" });
    const off = await createHook("/disabled", { enabled: false });
    const low = await createHook("/low-ok", { minSeverity: "low" });
    await raiseAlert({ severity: "medium" });
    await settled(low.id);
    await dispatcher.sweep();
    expect(await testDb().webhookDelivery.count({ where: { webhookId: { in: [high.id, off.id] } } })).toBe(0);
    expect(received.filter((r) => r.path === "/only-high" || r.path === "/disabled")).toHaveLength(0);
  });

  it("a delivery queued before its webhook was disabled is not sent", async () => {
    const hook = await createHook("/disabled-later");
    await dispatcher.stop(); // nothing runs while the alert is queued and the webhook disabled
    await raiseAlert();
    await testDb().webhook.update({ where: { id: hook.id }, data: { enabled: false } });
    dispatcher = await startDispatcher();
    const delivery = await settled(hook.id);
    expect(delivery).toMatchObject({ status: "dead", attempts: 0 });
    expect(delivery.lastError).toMatch(/disabled/);
    expect(hits.get("/disabled-later")).toBeUndefined();
  });

  it("two dispatchers (two workers) deliver each of 12 deliveries exactly once, including rows queued while both were down", async () => {
    await dispatcher.stop();
    const hook = await createHook("/many");
    for (let i = 0; i < 4; i++) await raiseAlert(); // queued while no dispatcher runs: the start sweep finds them
    const [a, b] = [await startDispatcher(), await startDispatcher()];
    dispatcher = a;
    try {
      for (let i = 0; i < 8; i++) await raiseAlert();
      await waitFor("12 deliveries", () => testDb().webhookDelivery.count({ where: { webhookId: hook.id, status: "delivered" } }), (n) => n === 12, 30_000);
      await Promise.all([a.sweep(), b.sweep()]);
      await new Promise((r) => setTimeout(r, 1_500));
      const ids = received.filter((r) => r.path === "/many").map((r) => r.headers["x-toolwatch-delivery"]);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
      expect(await testDb().webhookDelivery.aggregate({ where: { webhookId: hook.id }, _max: { attempts: true } })).toMatchObject({ _max: { attempts: 1 } });
    } finally {
      await b.stop();
    }
  });

  it("a dispatcher whose queue cannot start says so and keeps the process going", async () => {
    const { logger, messages } = captureLogger();
    const broken = await startWebhookDispatcher({
      databaseUrl: "postgresql://nobody@127.0.0.1:9/none",
      db: testDb(),
      key: TEST_KEY,
      targets: guardedFetch,
      policy: "all",
      log: logger,
      restartDelayMs: 60_000,
    });
    expect(broken.running).toBe(false);
    expect(messages.join("\n")).toMatch(/could not start.*notifications stay queued/s);
    await broken.stop();
  });
});
