// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { createServerWithSnapshot, createTeam, expectStatus, call, addBareMember, mintKey, signUp, ORIGIN, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";
import { body as bodyArb, FIXED_BODIES, jsonish, nastyString, pathParam, query as queryArb, type Body } from "@/tests/helpers/fuzz-inputs";

// Property-based fuzzing of every /api/v1 route file and every method it exports (found on disk,
// so a new route is fuzzed without touching this file), called in-process with real Requests
// against the real test Postgres, as a team admin API key and as the team owner's session, so
// inputs get past authentication to validation. For each answer: never a 5xx, never internal
// text, a JSON error envelope with a message on every 4xx, and no row of the team's (nor any
// table's row count) changed by a refused request. TOOLWATCH_FUZZ_RUNS raises the random cases.
const RUNS = Number(process.env.TOOLWATCH_FUZZ_RUNS ?? 5);
const V1 = path.resolve(import.meta.dirname, "../../app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteCase = { file: string; pattern: string; params: string[]; method: Method; handler: Handler };

function discoverRoutes(): Omit<RouteCase, "method" | "handler">[] {
  return fs
    .readdirSync(V1, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(`${path.sep}route.ts`) || f === "route.ts")
    .sort()
    .map((file) => {
      const dir = path.dirname(file) === "." ? "" : `/${path.dirname(file).split(path.sep).join("/")}`;
      return { file, pattern: `/api/v1${dir}`, params: [...dir.matchAll(/\[(\w+)\]/g)].map((m) => m[1]!) };
    });
}

// ---- what must never show ------------------------------------------------------------------
const INTERNAL = [/\bat .+:\d+:\d+/, /node_modules/, /prisma/i, /invocation/i, /\/work\//, /TypeError|ReferenceError|RangeError|SyntaxError: /, /Cannot read propert/, /stack/i, /\bSELECT\b|\bINSERT INTO\b/, /violates .*constraint/];

function parseEnvelope(text: string): { code?: unknown; message?: unknown } | null {
  try {
    return (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error ?? null;
  } catch {
    return null;
  }
}

function checkAnswer(what: string, status: number, text: string): void {
  expect(status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
  for (const pattern of INTERNAL) expect(text, `${what} leaks internals (${pattern})`).not.toMatch(pattern);
  if (status >= 400) {
    const error = parseEnvelope(text);
    expect(error, `${what}: a ${status} must be a JSON error envelope, got ${text.slice(0, 200)}`).toBeTruthy();
    expect(typeof error!.code, what).toBe("string");
    expect(typeof error!.message === "string" && error!.message.length > 0, `${what}: error without a message`).toBe(true);
  }
}

// ---- the database, before and after ---------------------------------------------------------
let tenantTables: string[] = [];
let allTables: string[] = [];
const UNTRACKED = new Set(["rate_counter", "auth_rate_limit", "_prisma_migrations", "auth_session", "api_key"]);

/** Row counts of every table, and a hash of every row of the fuzzed team's. */
async function fingerprint(tenantId: string): Promise<string> {
  const counts = allTables.map((t) => `(SELECT count(*) FROM "${t}")`).join(" || ',' || ");
  const hashes = tenantTables.map((t) => `(SELECT coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') FROM "${t}" x WHERE x.tenant_id = $1::uuid)`).join(" || ',' || ");
  const tenantRow = `(SELECT md5(x::text) FROM tenant x WHERE x.id = $1::uuid)`;
  const [row] = await testDb().$queryRawUnsafe<{ fp: string }[]>(`SELECT ${counts} || '|' || ${hashes} || '|' || ${tenantRow} AS fp`, tenantId);
  return row!.fp;
}

// ---- the team under attack ------------------------------------------------------------------
let team: TestTeam;
let callers: Caller[];
const realIds: Record<string, string[]> = {};

beforeAll(async () => {
  const tables = await testDb().$queryRaw<{ table_name: string; has_tenant: boolean }[]>`
    SELECT t.table_name, EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'tenant_id') AS has_tenant
    FROM information_schema.tables t WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY t.table_name`;
  allTables = tables.map((t) => t.table_name).filter((t) => !UNTRACKED.has(t));
  tenantTables = tables.filter((t) => t.has_tenant && !UNTRACKED.has(t.table_name)).map((t) => t.table_name);

  team = await createTeam(await signUp("fuzz-owner"), "fuzz");
  const adminKey = await mintKey(team.owner.caller, "admin", "fuzz-admin");
  callers = [adminKey.caller, team.owner.caller];
  const { serverId, snapshotId } = await createServerWithSnapshot(team, "fuzz-target");
  const member = await addBareMember(team, "viewer");
  const invitation = expectStatus(await call("POST", "/api/v1/invitations", { as: team.owner.caller, body: { email: `fuzz-inv-${Date.now()}@access.test`, role: "viewer" } }), 201).json.id as string;
  const view = await call("POST", "/api/v1/views", { as: team.owner.caller, body: { name: "fuzz view" } });
  const alert = await testDb().alert.create({ data: { tenantId: team.id, serverId, kind: "tool_changed", severity: "low", title: "fuzz", toolName: "alpha", candidateHash: "h", dedupeKey: "tool_changed:alpha" } });
  realIds.id = [serverId, snapshotId, member.memberId, invitation, team.id, alert.id, ...(view.status === 201 ? [view.json.id as string] : [])];
  realIds.name = ["alpha", "beta"];
  realIds.token = [];
  if (view.status === 201) {
    const share = await call("POST", `/api/v1/views/${view.json.id}/share`, { as: team.owner.caller, body: {} });
    if (share.status === 201 || share.status === 200) realIds.token.push(String(share.json.token ?? ""));
  }
});

// ---- one request ----------------------------------------------------------------------------
type Input = { caller: number; params: Record<string, string>; query: [string, string][]; body: Body };

async function send(rc: RouteCase, input: Input): Promise<{ status: number; text: string; what: string }> {
  const url = new URL(rc.pattern.replace(/\[(\w+)\]/g, (_, n: string) => encodeURIComponent(input.params[n]!.replace(/[\ud800-\udfff]/g, "x"))), ORIGIN);
  for (const [k, v] of input.query) url.searchParams.append(k, v);
  const headers: Record<string, string> = { host: url.host, ...callers[input.caller]!.headers };
  let payload: string | undefined;
  if (rc.method !== "GET") {
    if (input.body.kind === "json") {
      payload = JSON.stringify(input.body.value) ?? "null";
      headers["content-type"] = "application/json";
    } else {
      payload = input.body.text;
      if (input.body.contentType) headers["content-type"] = input.body.contentType;
    }
  }
  const what = `${rc.method} ${rc.pattern} as ${callers[input.caller]!.label} params=${JSON.stringify(input.params).slice(0, 120)} query=${JSON.stringify(input.query).slice(0, 120)} body=${(payload ?? "").slice(0, 160)}`;
  const response = await rc.handler(new Request(url, { method: rc.method, headers, body: payload }), { params: Promise.resolve(input.params) });
  return { status: response.status, text: await response.text(), what };
}

// Nothing else writes while this file runs (no worker), so the fingerprint after one refused
// request is the one before the next: one fingerprint per request, not two.
let lastFingerprint: string | null = null;

async function checkOne(rc: RouteCase, input: Input): Promise<void> {
  const before = lastFingerprint ?? (await fingerprint(team.id));
  const { status, text, what } = await send(rc, input);
  checkAnswer(what, status, text);
  if (process.env.FUZZ_DEBUG) console.log(`FUZZ ${status} ${what.slice(0, 140)} => ${text.slice(0, 160)}`);
  if (status >= 400) {
    const after = await fingerprint(team.id);
    expect(after, `${what} was refused (${status}) but changed the database`).toBe(before);
    lastFingerprint = after;
  } else {
    lastFingerprint = null;
  }
}

// A valid body per write route, when known: mutating one field of it gets past the shape checks
// to the field's own validation and on to the database. Routes not listed get arbitrary bodies.
const SEEDS: Record<string, Record<string, unknown>> = {
  "POST /api/v1/servers": { name: "seed", transport: "streamable-http", url: "http://127.0.0.1:9/mcp", tags: ["a"], headers: { "X-A": "b" } },
  "PATCH /api/v1/servers/[id]": { tags: ["a"], name: "renamed", pollIntervalSeconds: 600, enabled: false },
  "POST /api/v1/servers/batch": { servers: [{ name: "seed-batch", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" }] },
  "POST /api/v1/views": { name: "seed view", filters: { servers: { tags: ["a"], query: "x" }, timeRange: "24h" } },
  "PATCH /api/v1/views/[id]": { name: "seed view 2", pinned: true, filters: { servers: { query: "y" } } },
  "POST /api/v1/webhooks": { name: "seed hook", url: "https://hooks.example.invalid/x" },
  "PATCH /api/v1/webhooks/[id]": { enabled: false, name: "seed hook 2" },
  "POST /api/v1/invitations": { email: "seed@access.test", role: "viewer" },
  "POST /api/v1/keys": { name: "seed key", role: "viewer" },
  "POST /api/v1/teams": { slug: "seed-team", name: "Seed" },
  "POST /api/v1/teams/active": { teamId: "00000000-0000-0000-0000-000000000000" },
  "PATCH /api/v1/members/[id]": { role: "viewer" },
  "POST /api/v1/alerts/[id]/approve": { hash: "h" },
  "POST /api/v1/alerts/[id]/acknowledge": { comment: "seen" },
  "POST /api/v1/alerts/acknowledge": { ids: ["00000000-0000-0000-0000-000000000000"], comment: "seen" },
  "PATCH /api/v1/admin/teams/[id]/quota": { maxServers: 5, minPollSeconds: 60, listingsPerMinute: 10 },
};

/** Every field of a seed, nested objects included, as a path. */
function fieldPaths(value: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([k, v]) => (v && typeof v === "object" && !Array.isArray(v) ? [[...prefix, k], ...fieldPaths(v as Record<string, unknown>, [...prefix, k])] : [[...prefix, k]]));
}

function withField(seed: Record<string, unknown>, at: string[], value: unknown): Body {
  const copy = structuredClone(seed);
  let parent = copy;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
  parent[at.at(-1)!] = value;
  return { kind: "json", value: copy };
}

function mutatedSeed(seed: Record<string, unknown>): fc.Arbitrary<Body> {
  return fc.record({ at: fc.constantFrom(...fieldPaths(seed)), value: fc.oneof(nastyString, jsonish) }).map(({ at, value }) => withField(seed, at, value));
}

// Each field of a seed, and each string inside its arrays, set to NUL, a lone surrogate, 5,000
// nested arrays: the values that get past a type check and break Postgres or a recursive walker.
const DEEP = "\u{1F573}deep";
function seedVariants(seed: Record<string, unknown> | undefined): Body[] {
  if (!seed) return [];
  return fieldPaths(seed).flatMap((at) =>
    ["a\u0000b", "\ud800x", DEEP, ["a\u0000b"], [{ tags: ["\u0000"] }]].map((v): Body => {
      const body = withField(seed, at, v);
      // Built as text: a 5,000-deep value would overflow JSON.stringify on this side.
      return v === DEEP ? { kind: "raw", text: JSON.stringify(body.kind === "json" ? body.value : null).replace(JSON.stringify(DEEP), `${"[".repeat(5000)}${"]".repeat(5000)}`), contentType: "application/json" } : body;
    }),
  );
}

const inputArb = (rc: RouteCase): fc.Arbitrary<Input> => {
  const seed = SEEDS[`${rc.method} ${rc.pattern}`];
  return fc.record({
    caller: fc.integer({ min: 0, max: 1 }),
    params: fc.record(Object.fromEntries(rc.params.map((p) => [p, rc.method === "DELETE" || !realIds[p]?.length ? pathParam : fc.oneof(pathParam, fc.constantFrom(...realIds[p]!))]))) as fc.Arbitrary<Record<string, string>>,
    query: queryArb,
    body: seed ? fc.oneof({ arbitrary: mutatedSeed(seed), weight: 3 }, { arbitrary: bodyArb, weight: 1 }) : bodyArb,
  });
};

const routes = discoverRoutes();
const cases: RouteCase[] = [];
for (const r of routes) {
  const module = (await import(path.join(V1, r.file))) as Partial<Record<Method, Handler>>;
  for (const method of METHODS) if (typeof module[method] === "function") cases.push({ ...r, method, handler: module[method]! });
}

describe("fuzzing every /api/v1 route", () => {
  it("finds the route files on disk", () => {
    expect(routes.length).toBeGreaterThanOrEqual(39);
    expect(cases.length).toBeGreaterThanOrEqual(53);
  });

  it.each(cases.map((c) => [`${c.method} ${c.pattern}`, c] as const))("%s: nasty and random inputs never get a 5xx, leak internals or write when refused", async (_name, rc) => {
    const fixedParam = (i: number) => Object.fromEntries(rc.params.map((p) => [p, ["\u0000", "\ud800", "x".repeat(5000), "../../etc/passwd", "00000000-0000-0000-0000-000000000000"][i % 5]!]));
    for (const [i, b] of FIXED_BODIES.entries()) {
      if (rc.method === "GET" && i > 0) break; // GETs have no body: one pass for the params
      await checkOne(rc, { caller: i % 2, params: fixedParam(i), query: [["limit", "\u0000"], ["cursor", "\ud800"]], body: b });
      if (rc.params.length && realIds[rc.params[0]!]?.length && rc.method !== "DELETE") {
        await checkOne(rc, { caller: (i + 1) % 2, params: Object.fromEntries(rc.params.map((p) => [p, realIds[p]?.[i % realIds[p]!.length] ?? "x"])), query: [], body: b });
      }
    }
    for (const [i, b] of seedVariants(SEEDS[`${rc.method} ${rc.pattern}`]).entries()) {
      const params = Object.fromEntries(rc.params.map((p) => [p, realIds[p]?.[0] ?? "x"]));
      await checkOne(rc, { caller: i % 2, params, query: [], body: b });
    }
    await fc.assert(fc.asyncProperty(inputArb(rc), (input) => checkOne(rc, input)), { numRuns: RUNS, seed: process.env.TOOLWATCH_FUZZ_SEED ? Number(process.env.TOOLWATCH_FUZZ_SEED) : undefined });
  });
});
