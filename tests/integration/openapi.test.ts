// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createServerWithSnapshot, createTeam, disableServers, expectStatus, mintKey, signUp, type TestTeam } from "@/tests/helpers/api-client";
import { compileErrors, validate } from "@readme/openapi-parser";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { GET as openApiRoute } from "@/app/api/v1/openapi.json/route";
import * as R from "@/lib/openapi/responses";

// The OpenAPI document (GET /api/v1/openapi.json) against two things outside the generator: an
// OpenAPI 3.1 validator, and the route files on disk (every app/api/v1/**/route.ts and each method
// it exports). Then real answers of the main endpoints are checked against the response schemas
// the document is generated from, so the schemas cannot drift from the DTOs.

const API_DIR = path.join(process.cwd(), "app", "api", "v1");
const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"] as const;
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, { content: { "application/json": { schema: unknown } } }> } };
type Operation = { requestBody?: { content: Record<string, { schema?: unknown }> }; responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>; parameters?: { $ref?: string; name?: string }[] };

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : []));
}

/** From the file system: path template ([id] → {id}), exported methods, whether the handler reads a body. */
const EXPECTED = routeFiles(API_DIR).map((file) => {
  const source = readFileSync(file, "utf8");
  const rel = path.relative(API_DIR, path.dirname(file)).split(path.sep).map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"));
  const methods = METHODS.filter((m) => new RegExp(`export (const|async function|function) ${m}\\b`).test(source));
  // A handler reads a body when its own text (up to the next export) calls readJson.
  const handlerText = (m: string) => source.slice(source.search(new RegExp(`export (const|async function|function) ${m}\\b`))).split(/\nexport /)[0]!;
  const readsBody = methods.filter((m) => /readJson\(/.test(handlerText(m)));
  return { file: path.relative(process.cwd(), file), path: `/api/v1/${rel.join("/")}`, methods, readsBody };
});

let doc: Doc;

beforeAll(async () => {
  const response = openApiRoute();
  expect(response.status).toBe(200);
  doc = (await response.json()) as Doc;
});

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("found the route files on disk (sanity of the expectation itself)", () => {
    expect(EXPECTED.length).toBeGreaterThanOrEqual(40);
    expect(EXPECTED.every((e) => e.methods.length > 0)).toBe(true);
  });

  it("has every route file under app/api/v1 with each exported method, and nothing else", () => {
    const expected = EXPECTED.flatMap((e) => e.methods.map((m) => `${m} ${e.path}`)).sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(expected);
  });

  it("gives each operation a request schema where it reads a body, a response and the error envelope", () => {
    const envelope = doc.components.responses.Error400?.content["application/json"].schema;
    expect(envelope).toEqual({ $ref: "#/components/schemas/Error" });
    for (const route of EXPECTED) {
      for (const method of route.methods) {
        const op = doc.paths[route.path]![method.toLowerCase()]!;
        const where = `${method} ${route.path} (${route.file})`;
        if (route.readsBody.includes(method)) expect(op.requestBody?.content["application/json"]?.schema, where).toBeTruthy();
        // A redirect (the OAuth callback's 303) is that route's one success answer.
        const success = Object.entries(op.responses).filter(([s]) => s.startsWith("2") || s === "303");
        expect(success, where).toHaveLength(1);
        const [status, response] = success[0]!;
        if (status !== "204" && status !== "303") expect(response.content?.["application/json"]?.schema, where).toBeTruthy();
        expect(op.responses["400"]?.$ref, where).toBe("#/components/responses/Error400");
        expect(op.responses["500"]?.$ref, where).toBe("#/components/responses/Error500");
      }
    }
  });

  it("describes cursor pagination the same way on every list that answers nextCursor", () => {
    const paged = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item)
        .filter(([, op]) => JSON.stringify(op.responses).includes("nextCursor") || JSON.stringify(op.responses).includes("ServerPage"))
        .map(([m, op]) => ({ where: `${m} ${p}`, op })),
    );
    expect(paged.map((p) => p.where).sort()).toEqual(["get /api/v1/alerts", "get /api/v1/audit", "get /api/v1/collisions", "get /api/v1/servers", "get /api/v1/servers/{id}/snapshots", "get /api/v1/webhooks/{id}/deliveries"]);
    for (const { where, op } of paged) {
      const refs = (op.parameters ?? []).map((p) => p.$ref ?? p.name);
      expect(refs, where).toEqual(expect.arrayContaining(["#/components/parameters/Limit", "#/components/parameters/Cursor"]));
      expect(refs, where).not.toContain("limit");
    }
  });

  it("documents 429 RATE_LIMITED with Retry-After and RateLimit-* headers, and the limits in its description", () => {
    const text = JSON.stringify(doc);
    expect(text).toContain("Retry-After");
    expect(text).toContain("RateLimit-Remaining");
    expect(text).toContain("TOOLWATCH_API_RATE_PER_KEY");
    expect(doc.paths["/api/v1/servers"]!.get!.responses["429"]?.$ref).toBe("#/components/responses/Error429");
  });
});

describe("real answers match the response schemas", () => {
  let team: TestTeam;
  let serverId: string;
  let snapshotId: string;

  beforeAll(async () => {
    team = await createTeam(await signUp("oa-owner"), "openapi");
    ({ serverId, snapshotId } = await createServerWithSnapshot(team, "documented"));
  });
  afterAll(async () => disableServers(team));

  const check = (schema: z.ZodType, body: unknown, what: string) => {
    const parsed = schema.safeParse(body);
    expect(parsed.success, `${what}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 5))}`).toBe(true);
  };

  it("servers, snapshots, alerts, webhooks, views, keys and members", async () => {
    const as = team.owner.caller;
    check(R.ServerPage, expectStatus(await call("GET", "/api/v1/servers", { as }), 200).json, "GET /servers");
    check(R.Overview, expectStatus(await call("GET", "/api/v1/overview?days=7&tz=Europe/Berlin", { as }), 200).json, "GET /overview");
    check(R.ServerDetail, expectStatus(await call("GET", `/api/v1/servers/${serverId}`, { as }), 200).json, "GET /servers/{id}");
    check(R.pageOf(R.Snapshot), expectStatus(await call("GET", `/api/v1/servers/${serverId}/snapshots`, { as }), 200).json, "GET snapshots");
    check(R.Snapshot.loose(), expectStatus(await call("GET", `/api/v1/snapshots/${snapshotId}`, { as }), 200).json, "GET /snapshots/{id}");
    check(R.pageOf(R.AlertSummary), expectStatus(await call("GET", "/api/v1/alerts", { as }), 200).json, "GET /alerts");
    const hook = expectStatus(await call("POST", "/api/v1/webhooks", { as, body: { name: "documented", url: "http://127.0.0.1:9/hook" } }), 201).json;
    check(R.Webhook, hook, "POST /webhooks");
    check(R.itemsOf(R.Webhook), expectStatus(await call("GET", "/api/v1/webhooks", { as }), 200).json, "GET /webhooks");
    check(R.WebhookDelivery, expectStatus(await call("POST", `/api/v1/webhooks/${hook.id}/test`, { as }), 202).json, "POST test");
    check(R.pageOf(R.WebhookDelivery), expectStatus(await call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { as }), 200).json, "GET deliveries");
    await call("DELETE", `/api/v1/webhooks/${hook.id}`, { as });
    const view = expectStatus(await call("POST", "/api/v1/views", { as, body: { name: "documented", filters: { servers: { statuses: ["live"] } } } }), 201).json;
    check(R.View, view, "POST /views");
    check(R.CreatedShareLink, expectStatus(await call("POST", `/api/v1/views/${view.id}/share`, { as }), 201).json, "POST share");
    check(R.itemsOf(R.ShareLink), expectStatus(await call("GET", `/api/v1/views/${view.id}/shares`, { as }), 200).json, "GET shares");
    check(R.ApiKey, expectStatus(await call("POST", "/api/v1/keys", { as, body: { name: "documented", role: "viewer" } }), 201).json, "POST /keys");
    check(R.itemsOf(R.ApiKey), expectStatus(await call("GET", "/api/v1/keys", { as }), 200).json, "GET /keys");
    check(R.itemsOf(R.Member), expectStatus(await call("GET", "/api/v1/members", { as }), 200).json, "GET /members");
    check(R.Me, expectStatus(await call("GET", "/api/v1/me", { as }), 200).json, "GET /me");
    check(R.Quota, expectStatus(await call("GET", "/api/v1/quota", { as }), 200).json, "GET /quota");
    check(R.CachePage, expectStatus(await call("GET", "/api/v1/cache", { as }), 200).json, "GET /cache");
  });

  it("errors are the documented envelope: 400, 401, 404", async () => {
    const key = await mintKey(team.owner.caller, "viewer");
    check(R.ErrorEnvelope, expectStatus(await call("GET", "/api/v1/servers?limit=0", { as: key.caller }), 400).json, "400");
    check(R.ErrorEnvelope, expectStatus(await call("GET", "/api/v1/servers", { as: null }), 401).json, "401");
    check(R.ErrorEnvelope, expectStatus(await call("GET", "/api/v1/servers/00000000-0000-4000-8000-000000000000", { as: key.caller }), 404).json, "404");
  });
});
