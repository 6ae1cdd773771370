// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, expectStatus, signUp, type TestTeam } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskWebhookUrl, sealLegacyWebhookUrls, webhookUrlOf } from "@/lib/webhooks/webhook-url";
import { TEST_KEY, testDb } from "@/tests/helpers/factories";

// Issue 13: a Slack incoming-webhook URL is a credential (whoever has it posts to the channel).
// From the side of someone who can read the team's API answers, the audit log or a database dump:
// after creation the URL is never shown again, only its scheme and host and the last 4 characters;
// the row holds it sealed with the instance key. The receiver names below never resolve.
const TOKEN = "xoxb9fQk2LmN7pRtVwY3zA8c";
const SLACK = `https://hooks.slack.invalid/services/T0001/B0002/${TOKEN}`;
const uniq = () => randomUUID().slice(0, 8);

let team: TestTeam;
beforeAll(async () => {
  team = await createTeam(await signUp("wus-owner"), "wus");
});
afterAll(async () => {
  await testDb().webhook.deleteMany({ where: { tenantId: team.id } });
});

describe("webhook URLs are sealed at rest and shown masked", () => {
  it("create, list, get, PATCH and the audit log show https://host/…/XXXX, never the URL", async () => {
    const created = expectStatus(await call("POST", "/api/v1/webhooks", { as: team.owner.caller, body: { name: `slack-${uniq()}`, url: SLACK, format: "slack" } }), 201);
    expect(created.json.url).toBe("https://hooks.slack.invalid/…/zA8c");
    const texts = [
      created.text,
      expectStatus(await call("GET", "/api/v1/webhooks", { as: team.owner.caller }), 200).text,
      expectStatus(await call("GET", `/api/v1/webhooks/${created.json.id}`, { as: team.owner.caller }), 200).text,
      expectStatus(await call("PATCH", `/api/v1/webhooks/${created.json.id}`, { as: team.owner.caller, body: { enabled: false } }), 200).text,
      expectStatus(await call("GET", "/api/v1/audit?limit=200", { as: team.owner.caller }), 200).text,
    ];
    for (const text of texts) expect(text).not.toContain(TOKEN);
  });

  it("the row holds no plain URL: sealed, decryptable by the instance key alone", async () => {
    const created = expectStatus(await call("POST", "/api/v1/webhooks", { as: team.owner.caller, body: { name: `slack-${uniq()}`, url: SLACK } }), 201).json;
    const [raw] = await testDb().$queryRaw<Record<string, unknown>[]>`SELECT * FROM webhook WHERE id = ${created.id}::uuid`;
    expect(JSON.stringify(raw)).not.toContain(TOKEN);
    expect(raw!.url).toBeNull();
    expect(String(raw!.url_encrypted)).toMatch(/^v1:/);
    expect(webhookUrlOf(TEST_KEY, await testDb().webhook.findUniqueOrThrow({ where: { id: created.id } }))).toBe(SLACK);
  });

  it("PATCH with the same URL changes nothing; a new URL is sealed and audited by origin", async () => {
    const created = expectStatus(await call("POST", "/api/v1/webhooks", { as: team.owner.caller, body: { name: `slack-${uniq()}`, url: SLACK } }), 201).json;
    const same = expectStatus(await call("PATCH", `/api/v1/webhooks/${created.id}`, { as: team.owner.caller, body: { url: SLACK } }), 200).json;
    expect(same.url).toBe("https://hooks.slack.invalid/…/zA8c");
    const moved = expectStatus(await call("PATCH", `/api/v1/webhooks/${created.id}`, { as: team.owner.caller, body: { url: "https://other.example.invalid/hook/abcdefghijklmnop" } }), 200).json;
    expect(moved.url).toBe("https://other.example.invalid/…/mnop");
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: created.id, action: "webhook.updated" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.details)).toEqual([
      { name: created.name, fields: [] },
      { name: created.name, fields: ["url"], target: "https://other.example.invalid" },
    ]);
  });

  it("masking keeps scheme, host and port; short paths show nothing of themselves", () => {
    expect(maskWebhookUrl("http://127.0.0.1:9/hook")).toBe("http://127.0.0.1:9/…");
    expect(maskWebhookUrl("https://example.invalid/")).toBe("https://example.invalid/");
    expect(maskWebhookUrl("https://example.invalid/in?token=0123456789abcdef")).toBe("https://example.invalid/…/cdef");
  });

  it("rows stored in plain text before sealing are sealed by the worker's start-up backfill", async () => {
    const name = `legacy-${uniq()}`;
    await testDb().$executeRaw`INSERT INTO webhook (id, tenant_id, name, url, url_masked, secret_encrypted, updated_at) VALUES (gen_random_uuid(), ${team.id}::uuid, ${name}, ${SLACK}, 'https://hooks.slack.invalid/…', 'v1:x:y:z', now())`;
    const before = expectStatus(await call("GET", "/api/v1/webhooks", { as: team.owner.caller }), 200);
    expect(before.text).not.toContain(TOKEN);
    expect(await sealLegacyWebhookUrls(testDb(), TEST_KEY)).toBeGreaterThanOrEqual(1);
    const row = await testDb().webhook.findFirstOrThrow({ where: { tenantId: team.id, name } });
    expect(row).toMatchObject({ legacyUrl: null, urlMasked: "https://hooks.slack.invalid/…/zA8c" });
    expect(webhookUrlOf(TEST_KEY, row)).toBe(SLACK);
    expect(await sealLegacyWebhookUrls(testDb(), TEST_KEY)).toBe(0);
  });
});
