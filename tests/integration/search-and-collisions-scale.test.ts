import "@/tests/helpers/test-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collisionPageSql, listCollisions } from "@/lib/collisions/list-collisions";
import type { ServiceContext } from "@/lib/context";
import { Prisma } from "@/lib/generated/prisma/client";
import { searchTeam, toolSearchSql } from "@/lib/search/search-team";
import { createTenantContext, testDb } from "@/tests/helpers/factories";

// The two verbs at the fleet size of issue 17 (2,000 servers × 50 tools) next to a second team of
// the same size: what the plans use and how long the queries take. Rows are inserted straight into
// the tables (not through recordSnapshot, which would take minutes): 40 templates, so every name
// is offered by 50 servers, and 2,000 names collide.
const SERVERS = 2_000;
const TOOLS = 50;
const TEMPLATES = 40;

async function insertFleetRows(ctx: ServiceContext, label: string): Promise<void> {
  await ctx.db.$executeRaw`
    INSERT INTO mcp_server (id, tenant_id, name, transport, url, config_hash, enabled, updated_at)
    SELECT gen_random_uuid(), ${ctx.tenantId}::uuid, ${label} || '-' || lpad(i::text, 4, '0'), 'streamable_http', 'http://127.0.0.1:9/mcp', 'h', false, now()
      FROM generate_series(0, ${SERVERS - 1}) AS i`;
  // Every server's version of a tool differs (its description names the server): 100,000
  // tool_version rows per team, the worst case for the description search.
  await ctx.db.$executeRaw`
    WITH servers AS (SELECT id, created_at, row_number() OVER (ORDER BY name) - 1 AS i FROM mcp_server WHERE tenant_id = ${ctx.tenantId}::uuid),
    versions AS (
      INSERT INTO tool_version (id, tenant_id, hash, name, kind, definition, context_tokens)
      SELECT gen_random_uuid(), ${ctx.tenantId}::uuid, 'hash-' || s.i || '-' || k, 'tpl' || (s.i % ${TEMPLATES}) || '_op_' || k, 'tool',
             jsonb_build_object('name', 'tpl' || (s.i % ${TEMPLATES}) || '_op_' || k,
                                'description', 'Operation ' || k || ' of template ' || (s.i % ${TEMPLATES}) || ' on host ' || s.i || ': reads the record and returns it as JSON.'),
             -- counted (a constant): 200,000 uncounted rows would leave every later worker a backfill
             30
        FROM servers s, generate_series(0, ${TOOLS - 1}) AS k
      RETURNING id, hash, name, definition ->> 'description' AS description
    )
    INSERT INTO tool_name_entry (tenant_id, server_id, name, folded, skeleton, sibling_key, hash, version_id, created_at, description)
    SELECT ${ctx.tenantId}::uuid, s.id, v.name, v.name, v.name, v.name, v.hash, v.id, s.created_at, v.description
      FROM versions v JOIN servers s ON s.i = split_part(v.hash, '-', 2)::int`;
  await ctx.db.$executeRawUnsafe("ANALYZE mcp_server, tool_version, tool_name_entry");
}

type PlanNode = { "Node Type": string; "Index Name"?: string; Plans?: PlanNode[] };
const indexesOf = (node: PlanNode): string[] => [...(node["Index Name"] ? [node["Index Name"]] : []), ...(node.Plans ?? []).flatMap(indexesOf)];
async function explain(ctx: ServiceContext, sql: Prisma.Sql): Promise<{ indexes: string[]; ms: number; plan: PlanNode }> {
  const [row] = await ctx.db.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }[]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`);
  const out = row!["QUERY PLAN"][0];
  return { indexes: indexesOf(out.Plan), ms: out["Execution Time"], plan: out.Plan };
}

let ctx: ServiceContext;

let other: ServiceContext;

beforeAll(async () => {
  ctx = await createTenantContext("finder-scale");
  other = await createTenantContext("finder-scale-other");
  await insertFleetRows(other, "other");
  await insertFleetRows(ctx, "fleet");
}, 180_000);

// 2 × 100,000 rows would otherwise stay in the database every later suite shares (deleting the
// teams cascades to their servers, versions and name entries).
afterAll(async () => {
  await testDb().tenant.deleteMany({ where: { id: { in: [ctx.tenantId, other.tenantId] } } });
}, 120_000);

describe("search and collisions at 2,000 servers × 50 tools", () => {
  it("the fixture is what it says: 100,000 current tools, 2,000 names each offered by 50 servers", async () => {
    expect(await testDb().toolNameEntry.count({ where: { tenantId: ctx.tenantId } })).toBe(SERVERS * TOOLS);
  });

  it("a page of collisions walks the (tenant_id, name, hash) index and stops after the page", async () => {
    const { indexes, ms, plan } = await explain(ctx, collisionPageSql(ctx.tenantId, null, 51));
    expect(indexes, JSON.stringify(plan).slice(0, 3000)).toContain("tool_name_entry_tenant_id_name_hash_idx");
    console.log(`collisions page (50 names × up to 50 servers): ${ms.toFixed(1)} ms`);
    const page = await listCollisions(ctx, { limit: "50" });
    expect(page.items).toHaveLength(50);
    expect(page.items[0]).toMatchObject({ toolName: "tpl0_op_0", serverCount: 50, definitionCount: 50 });
    expect(page.items[0]!.servers.map((s) => s.serverName).slice(0, 3)).toEqual(["fleet-0000", "fleet-0040", "fleet-0080"]);
    const deep = await listCollisions(ctx, { limit: "50", cursor: page.nextCursor! });
    // The first page holds tpl0's 50 names; then byte order (the database's C collation): "tpl10…" < "tpl1_…".
    expect(deep.items[0]!.toolName).toBe("tpl10_op_0");
  });

  it("a tool search answers from the trigram index, for a rare and for a common term", async () => {
    for (const q of ["host 1999:", "template 39", "op_4"]) {
      const { indexes, ms } = await explain(ctx, toolSearchSql(ctx.tenantId, q));
      console.log(`tool search ${JSON.stringify(q)}: ${ms.toFixed(1)} ms, indexes ${[...new Set(indexes)].join(", ")}`);
      if (q === "host 1999:") expect(indexes).toContain("tool_name_entry_description_trgm_idx");
    }
    const result = await searchTeam(ctx, { q: "template 39" });
    expect(result.tools).toHaveLength(8);
    expect(result.tools.every((t) => t.description?.includes("template 39"))).toBe(true);
    expect((await searchTeam(ctx, { q: "host 1999:" })).tools.map((t) => t.serverName)).toEqual(Array(8).fill("fleet-1999"));
    const started = performance.now();
    await searchTeam(ctx, { q: "fleet-19" });
    console.log(`whole search "fleet-19": ${(performance.now() - started).toFixed(1)} ms`);
  });
});
