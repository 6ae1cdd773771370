// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, call, createHttpServer, createTeam, disableServers, expectStatus, mintKey, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueAlertNotifications } from "@/lib/webhooks/enqueue";
import { alertUrl, buildAlertPayload } from "@/lib/webhooks/payload";
import { escapeMrkdwn, renderSlackBody } from "@/lib/webhooks/slack";
import { webhookUrlOf } from "@/lib/webhooks/webhook-url";
import { targetRefusal } from "@/lib/network/check-target";
import { TEST_KEY, testDb } from "@/tests/helpers/factories";

// The webhook API as admins use it (through the real route handlers), who may not use it, what
// it refuses, and which webhooks an alert is queued for. Nothing is sent here: no worker runs.

// Loopback, nothing listens. Every team may use it here (TOOLWATCH_PRIVATE_TARGETS=all for the tier;
// who may is tests/integration/private-targets.test.ts). The API shows it masked: its path may be a token.
const RECEIVER = "http://127.0.0.1:9/hook";
const RECEIVER_MASKED = "http://127.0.0.1:9/…";
const uniq = () => randomUUID().slice(0, 8);
type Json = Record<string, unknown>;

let team: TestTeam;
let other: TestTeam;
let admin: Caller;
let serverId: string;

async function createHook(body: Json = {}, as: Caller = team.owner.caller) {
  return expectStatus(await call("POST", "/api/v1/webhooks", { as, body: { name: `hook-${uniq()}`, url: RECEIVER, ...body } }), 201, "create webhook").json;
}

async function insertAlert(severity: "critical" | "high" | "medium" | "low" | "info", extra: Json = {}) {
  return testDb().alert.create({
    data: { tenantId: team.id, serverId, kind: "tool_changed", severity, title: `alert ${uniq()}`, toolName: "read_file", dedupeKey: uniq(), findings: [], ...extra },
  });
}

async function enqueue(alertId: string, tenantId = team.id) {
  await testDb().$transaction((tx) => enqueueAlertNotifications(tx, tenantId, alertId));
  return testDb().webhookDelivery.findMany({ where: { alertId }, orderBy: { createdAt: "asc" } });
}

beforeAll(async () => {
  const owner = await signUp("wh-owner");
  team = await createTeam(owner, "webhooks");
  other = await createTeam(await signUp("wh-other"), "webhooks-other");
  const adminUser = await signUp("wh-admin");
  await addMember(team, adminUser, "admin");
  admin = adminUser.caller;
  serverId = await createHttpServer(team, "watched");
});

afterAll(async () => {
  // The delivery suite runs a dispatcher on the same database: leave it nothing to send.
  await testDb().webhook.deleteMany({ where: { tenantId: { in: [team.id, other.id] } } });
  await disableServers(team, other);
});

describe("webhook CRUD: the signing secret is shown once", () => {
  it("create returns the secret once; list, get and the delivery log never show it", async () => {
    const created = await createHook({ format: "slack", minSeverity: "high" }, admin);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ format: "slack", minSeverity: "high", enabled: true, url: RECEIVER_MASKED, lastDelivery: null });
    expect(created).not.toHaveProperty("secretEncrypted");
    const texts = [
      (await call("GET", "/api/v1/webhooks", { as: admin })).text,
      (await call("GET", `/api/v1/webhooks/${created.id}`, { as: admin })).text,
      (await call("PATCH", `/api/v1/webhooks/${created.id}`, { as: admin, body: { name: `renamed-${uniq()}` } })).text,
      expectStatus(await call("POST", `/api/v1/webhooks/${created.id}/test`, { as: admin }), 202).text,
      (await call("GET", `/api/v1/webhooks/${created.id}/deliveries`, { as: admin })).text,
      (await call("GET", "/api/v1/audit?limit=200", { as: admin })).text,
    ];
    const row = await testDb().webhook.findUniqueOrThrow({ where: { id: created.id } });
    for (const text of texts) {
      expect(text).not.toContain(created.secret);
      expect(text).not.toContain(row.secretEncrypted);
      expect(text).not.toMatch(/"secret(Encrypted)?"/);
    }
    const listed = (await call("GET", "/api/v1/webhooks", { as: admin })).json.items.find((w: Json) => w.id === created.id);
    expect(listed.lastDelivery).toMatchObject({ event: "test", status: "pending" });
    expect(row.secretEncrypted).toMatch(/^v1:/); // sealed at rest
  });

  it("PATCH edits fields; rotateSecret returns a new secret, once", async () => {
    const created = await createHook();
    const patched = expectStatus(await call("PATCH", `/api/v1/webhooks/${created.id}`, { as: admin, body: { minSeverity: "critical", enabled: false, format: "slack" } }), 200).json;
    expect(patched).toMatchObject({ minSeverity: "critical", enabled: false, format: "slack" });
    expect(patched).not.toHaveProperty("secret");
    const rotated = expectStatus(await call("PATCH", `/api/v1/webhooks/${created.id}`, { as: admin, body: { rotateSecret: true } }), 200).json;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect((await call("GET", `/api/v1/webhooks/${created.id}`, { as: admin })).json).not.toHaveProperty("secret");
  });

  it("DELETE → 204, then 404; the audit log records create, update, test and delete with the receiver's origin only", async () => {
    const created = await createHook({ url: "http://127.0.0.1:9/services/T000/B000/tokenpart" });
    expectStatus(await call("PATCH", `/api/v1/webhooks/${created.id}`, { as: admin, body: { enabled: false } }), 200);
    expectStatus(await call("POST", `/api/v1/webhooks/${created.id}/test`, { as: admin }), 202);
    expectStatus(await call("DELETE", `/api/v1/webhooks/${created.id}`, { as: admin }), 204);
    expect((await call("GET", `/api/v1/webhooks/${created.id}`, { as: admin })).status).toBe(404);
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: created.id }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["webhook.created", "webhook.updated", "webhook.tested", "webhook.deleted"]);
    expect(audit[0]!.details).toMatchObject({ target: "http://127.0.0.1:9", format: "json" });
    expect(audit[1]!.details).toMatchObject({ fields: ["enabled"] });
    expect(JSON.stringify(audit.map((a) => a.details))).not.toContain("tokenpart");
  });

  it("a second webhook with the same name in a team → 409", async () => {
    const name = `dup-${uniq()}`;
    await createHook({ name });
    const res = await call("POST", "/api/v1/webhooks", { as: admin, body: { name, url: RECEIVER } });
    expect(res.status, res.text).toBe(409);
  });
});

describe("input validation: 400 with field messages", () => {
  it.each<[string, string, Json]>([
    ["no name", "name", { url: RECEIVER }],
    ["no url", "url", { name: "x" }],
    ["ftp url", "url", { name: "x", url: "ftp://example.com/hook" }],
    ["not a url", "url", { name: "x", url: "hook me" }],
    ["credentials in the url", "url", { name: "x", url: "https://user:pw@example.com/hook" }],
    ["unknown format", "format", { name: "x", url: RECEIVER, format: "xml" }],
    ["unknown severity", "minSeverity", { name: "x", url: RECEIVER, minSeverity: "urgent" }],
    ["enabled not a boolean", "enabled", { name: "x", url: RECEIVER, enabled: "yes" }],
  ])("%s → 400 naming %s", async (_title, field, body) => {
    const res = await call("POST", "/api/v1/webhooks", { as: admin, body });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("INVALID_INPUT");
    expect(res.json.error.details.fields).toHaveProperty(field);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", /metadata/],
    ["http://[fd00:ec2::254]/", /metadata/],
    ["http://169.254.10.1/hook", /link-local/],
    ["http://[::ffff:169.254.169.254]/", /metadata/],
  ])("SSRF: %s is refused at creation and on PATCH with 400", async (url, reason) => {
    const res = await call("POST", "/api/v1/webhooks", { as: admin, body: { name: `ssrf-${uniq()}`, url } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.fields.url).toMatch(reason);
    const hook = await createHook();
    const patch = await call("PATCH", `/api/v1/webhooks/${hook.id}`, { as: admin, body: { url } });
    expect(patch.status, patch.text).toBe(400);
    expect(webhookUrlOf(TEST_KEY, await testDb().webhook.findUniqueOrThrow({ where: { id: hook.id } }))).toBe(RECEIVER);
  });

  it("where a URL points is judged by the rule (TOOLWATCH_PRIVATE_TARGETS): admins' teams, all, none", async () => {
    const judge = (url: string, privateAllowed: boolean, policy: "admins" | "all" | "none") => targetRefusal(url, { privateAllowed, policy, field: "url" });
    for (const url of ["http://127.0.0.1:8080/hook", "http://10.1.2.3/hook", "http://[::1]:9000/"]) {
      expect(await judge(url, true, "admins")).toBeNull();
      expect(await judge(url, true, "all")).toBeNull();
      expect(await judge(url, false, "admins")).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/only for teams an instance administrator belongs to \(TOOLWATCH_PRIVATE_TARGETS=admins\)/) });
      expect(await judge(url, false, "none")).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/disabled on this instance \(TOOLWATCH_PRIVATE_TARGETS=none\)/) });
    }
    expect(await judge("http://169.254.169.254/", true, "all")).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/metadata endpoint/) });
    expect(await judge("https://hooks.slack.invalid/services/T/B/x", false, "none")).toBeNull(); // does not resolve: judged at send time
  });

  it("bad delivery-log paging → 400", async () => {
    const hook = await createHook();
    for (const q of ["limit=0", "limit=abc", "cursor=nonsense", "status=lost"]) {
      const res = await call("GET", `/api/v1/webhooks/${hook.id}/deliveries?${q}`, { as: admin });
      expect(res.status, `${q}: ${res.text}`).toBe(400);
    }
  });
});

describe("who may manage webhooks", () => {
  it("viewers and members (sessions and keys) get 403 on every webhook route; admin keys may", async () => {
    const hook = await createHook();
    const callers: Caller[] = [];
    for (const role of ["viewer", "member"] as const) {
      const user = await signUp(`wh-${role}`);
      await addMember(team, user, role);
      callers.push(user.caller, (await mintKey(team.owner.caller, role)).caller);
    }
    const requests: [("GET" | "POST" | "PATCH" | "DELETE"), string, Json?][] = [
      ["GET", "/api/v1/webhooks"],
      ["POST", "/api/v1/webhooks", { name: `x-${uniq()}`, url: RECEIVER }],
      ["GET", `/api/v1/webhooks/${hook.id}`],
      ["PATCH", `/api/v1/webhooks/${hook.id}`, { enabled: false }],
      ["DELETE", `/api/v1/webhooks/${hook.id}`],
      ["GET", `/api/v1/webhooks/${hook.id}/deliveries`],
      ["POST", `/api/v1/webhooks/${hook.id}/test`],
    ];
    for (const as of callers) {
      for (const [method, path, body] of requests) {
        const res = await call(method, path, { as, body });
        expect(res.status, `${as.label} ${method} ${path}: ${res.text}`).toBe(403);
        expect(res.json.error.message).toMatch(/may not manage webhooks/);
      }
    }
    const adminKey = (await mintKey(team.owner.caller, "admin")).caller;
    expectStatus(await call("GET", `/api/v1/webhooks/${hook.id}`, { as: adminKey }), 200);
    expectStatus(await call("POST", `/api/v1/webhooks/${hook.id}/test`, { as: adminKey }), 202);
    expect(await testDb().webhook.count({ where: { id: hook.id, enabled: true } })).toBe(1);
  });

  it("another team's webhook is 404 on every route, and its owner sees only their own", async () => {
    const hook = await createHook();
    const stranger = other.owner.caller;
    for (const [method, path, body] of [
      ["GET", `/api/v1/webhooks/${hook.id}`],
      ["PATCH", `/api/v1/webhooks/${hook.id}`, { enabled: false }],
      ["DELETE", `/api/v1/webhooks/${hook.id}`],
      ["GET", `/api/v1/webhooks/${hook.id}/deliveries`],
      ["POST", `/api/v1/webhooks/${hook.id}/test`],
      ["GET", "/api/v1/webhooks/not-a-uuid"],
    ] as const) {
      const res = await call(method, path, { as: stranger, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
    expect((await call("GET", "/api/v1/webhooks", { as: stranger })).json.items).toEqual([]);
    expect(await testDb().webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(0);
  });
});

describe("enqueueAlertNotifications: which webhooks an alert goes to", () => {
  it("only enabled webhooks whose minSeverity is at or below the alert's severity; other teams never", async () => {
    await testDb().webhook.deleteMany({ where: { tenantId: team.id } });
    const floor = async (minSeverity: string, enabled = true) => (await createHook({ name: `floor-${minSeverity}-${enabled}-${uniq()}`, minSeverity, enabled })).id as string;
    const [info, low, high, critical, disabled] = [await floor("info"), await floor("low"), await floor("high"), await floor("critical"), await floor("info", false)];
    const foreign = (await createHook({ minSeverity: "info" }, other.owner.caller)).id;
    const cases: ["critical" | "high" | "medium" | "low" | "info", string[]][] = [
      ["info", [info]],
      ["low", [info, low]],
      ["medium", [info, low]],
      ["high", [info, low, high]],
      ["critical", [info, low, high, critical]],
    ];
    for (const [severity, expected] of cases) {
      const deliveries = await enqueue((await insertAlert(severity)).id);
      expect(deliveries.map((d) => d.webhookId).sort(), severity).toEqual([...expected].sort());
      expect(deliveries.every((d) => d.status === "pending" && d.attempts === 0 && d.event === "alert.opened")).toBe(true);
    }
    expect(await testDb().webhookDelivery.count({ where: { webhookId: { in: [disabled, foreign] } } })).toBe(0);
  });

  it("the payload is built from the alert; the event follows its lifecycle", async () => {
    await testDb().webhook.deleteMany({ where: { tenantId: team.id } });
    const hook = await createHook({ minSeverity: "info" });
    const findings = Array.from({ length: 8 }, (_, i) => ({ ruleId: `R${i + 1}`, severity: "high", message: `finding ${i}`, evidence: { text: "secret-ish" } }));
    const alert = await insertAlert("critical", { kind: "suspicious_content", title: "Poisoned description", findings });
    const [first] = await enqueue(alert.id);
    const payload = first!.payload as Json & { alert: Json & { findings: Json[] } };
    expect(payload).toMatchObject({
      type: "alert.opened",
      id: first!.id,
      team: { id: team.id, slug: team.slug },
      alert: { id: alert.id, kind: "suspicious_content", severity: "critical", status: "open", title: "Poisoned description", toolName: "read_file", server: { id: serverId, name: "watched" }, url: `/alerts/${alert.id}` },
    });
    expect(payload.alert.findings).toHaveLength(5);
    expect(payload.alert.findings[0]).toEqual({ ruleId: "R1", severity: "high", message: "finding 0" });
    expect(first!.webhookId).toBe(hook.id);

    expect((await enqueue(alert.id)).map((d) => d.event)).toEqual(["alert.opened", "alert.updated"]);
    await testDb().alert.update({ where: { id: alert.id }, data: { status: "resolved" } });
    expect((await enqueue(alert.id)).at(-1)!.event).toBe("alert.resolved");
    await testDb().$transaction((tx) => enqueueAlertNotifications(tx, team.id, alert.id, { event: "alert.updated" }));
    expect((await testDb().webhookDelivery.findMany({ where: { alertId: alert.id }, orderBy: { createdAt: "desc" }, take: 1 }))[0]!.event).toBe("alert.updated");
  });

  it("rolls back with the caller's transaction, and refuses an alert of another team", async () => {
    await createHook({ minSeverity: "info" });
    const alert = await insertAlert("high");
    await expect(
      testDb().$transaction(async (tx) => {
        await enqueueAlertNotifications(tx, team.id, alert.id);
        throw new Error("pipeline failed later");
      }),
    ).rejects.toThrow("pipeline failed later");
    expect(await testDb().webhookDelivery.count({ where: { alertId: alert.id } })).toBe(0);
    await expect(testDb().$transaction((tx) => enqueueAlertNotifications(tx, other.id, alert.id))).rejects.toThrow(/not found/);
  });

  it("the delivery log pages newest first without gaps or repeats", async () => {
    const hook = await createHook({ minSeverity: "info" });
    for (let i = 0; i < 5; i++) expectStatus(await call("POST", `/api/v1/webhooks/${hook.id}/test`, { as: admin }), 202);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = expectStatus(await call("GET", `/api/v1/webhooks/${hook.id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { as: admin }), 200).json;
      const items = page.items as Json[];
      expect(items.length).toBeLessThanOrEqual(2);
      for (const d of items) expect(d).toMatchObject({ webhookId: hook.id, event: "test", status: "pending", attempts: 0, statusCode: null, lastError: null });
      seen.push(...items.map((d) => d.id as string));
      cursor = page.nextCursor as string | null;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const times = await testDb().webhookDelivery.findMany({ where: { id: { in: seen } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } });
    expect(seen).toEqual(times.map((t) => t.id));
  });
});

describe("payload rendering", () => {
  it("Slack bodies escape untrusted text so it cannot form links or mentions", () => {
    const payload = buildAlertPayload({
      deliveryId: randomUUID(),
      event: "alert.opened",
      createdAt: new Date(),
      team: { id: randomUUID(), slug: "acme" },
      baseUrl: "https://toolwatch.example.com/",
      alert: {
        id: randomUUID(),
        kind: "suspicious_content",
        severity: "critical",
        status: "open",
        title: "Click <https://evil.example|here> & <!channel>",
        toolName: "<@U123> read_file",
        findings: [{ ruleId: "R9", severity: "critical", message: "asks to read <~/.ssh/id_rsa>" }],
        server: { id: randomUUID(), name: "<!here> server" },
      },
    });
    const slack = renderSlackBody(payload);
    const text = JSON.stringify(slack);
    for (const raw of ["<https://evil", "<!channel>", "<!here>", "<@U123>", "<~/.ssh"]) expect(text).not.toContain(raw);
    expect(slack.text).toContain("Click &lt;https://evil.example|here&gt; &amp; &lt;!channel&gt;");
    expect(slack.blocks.map((b) => b.type)).toEqual(["section", "section", "context", "actions"]);
    expect(text).toContain(`"url":"https://toolwatch.example.com/alerts/${payload.alert.id}"`);
    expect(escapeMrkdwn("a&b".repeat(10), 12)).toMatch(/^(a&amp;b)*a?(&amp;)?…$/);
    expect(alertUrl("x", undefined)).toBe("/alerts/x");
  });
});
