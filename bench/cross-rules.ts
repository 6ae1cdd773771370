import fs from "node:fs";
import path from "node:path";
import { evaluateSnapshot } from "@/lib/alerts/evaluate-snapshot";
import type { ServiceContext } from "@/lib/context";
import { createDb, type Db } from "@/lib/db";
import { indexedNames, syncToolNameIndex } from "@/lib/alerts/tool-name-index";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hashTool, hashToolList } from "@/lib/snapshots/canonical-hash";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";

// Cross-server rules at fleet size (issue 12): the cost of evaluating the N-th new server's first
// snapshot when the team already has N-1 servers × TOOLS tools. The fleet is written with bulk SQL
// (what the worker would have stored); only the last server goes through recordSnapshot and
// evaluateSnapshot, which is what is timed. Prints numbers, asserts nothing.
const TOOLS = Number(process.env.BENCH_CROSS_TOOLS ?? 50);
const quick = process.argv.includes("--quick");
const SIZES = (process.env.BENCH_CROSS_SIZES ?? (quick ? "100,500" : "100,500,2000")).split(",").map(Number);
const SAMPLES = 3;

type Tool = { name: string; description: string; inputSchema: Record<string, unknown> };
const distinctTool = (server: number, t: number): Tool => ({
  name: `svc${server}_op_${t}`,
  description: `Operation ${t} of service ${server}: reads the record and returns it as JSON.`,
  inputSchema: { type: "object", properties: { id: { type: "string", description: "Record id" } }, required: ["id"] },
});
const templateTool = (_server: number, t: number): Tool => ({
  name: `template_op_${t}`,
  description: `Operation ${t} of the shared template service: reads the record and returns it as JSON.`,
  inputSchema: { type: "object", properties: { id: { type: "string", description: "Record id" } }, required: ["id"] },
});

/** Stores `count` servers with one snapshot each, as the worker would have (tool versions, snapshot). */
async function seedFleet(db: Db, tenantId: string, prefix: string, count: number, makeTool: (s: number, t: number) => Tool): Promise<void> {
  const versions = new Map<string, string>();
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, (_, k) => start + k);
    const servers = await db.mcpServer.createManyAndReturn({
      data: batch.map((i) => ({ tenantId, name: `${prefix}-${i}`, transport: "streamable_http" as const, url: `http://127.0.0.1:9/${prefix}/${i}`, configHash: "x", enabled: false })),
      select: { id: true, name: true },
    });
    const lists = batch.map((i) => Array.from({ length: TOOLS }, (_, t) => makeTool(i, t)));
    const fresh = lists.flat().filter((tool) => !versions.has(hashTool(tool)));
    const unique = [...new Map(fresh.map((tool) => [hashTool(tool), tool])).entries()];
    if (unique.length) {
      const rows = await db.toolVersion.createManyAndReturn({ data: unique.map(([hash, tool]) => ({ tenantId, hash, name: tool.name, definition: tool as unknown as Prisma.InputJsonValue })), select: { id: true, hash: true } });
      for (const r of rows) versions.set(r.hash, r.id);
    }
    const hashed = lists.map((list) => list.map((tool) => ({ name: tool.name, hash: hashTool(tool), versionId: versions.get(hashTool(tool))! })));
    await db.snapshot.createMany({
      data: servers.map((s, k) => ({ tenantId, serverId: s.id, contentHash: hashToolList(hashed[k]!), toolCount: TOOLS, trigger: "poll", toolVersionIds: hashed[k]!.map((h) => h.versionId) })),
    });
    // The team's tool-name index, as each server's own evaluation would have left it.
    for (const [k, s] of servers.entries()) await db.$transaction(async (tx) => syncToolNameIndex(tx, tenantId, s.id, hashed[k]!, await indexedNames(tx, tenantId, s.id)));
  }
}

async function timeNewServer(ctx: ServiceContext, name: string, tools: Tool[]): Promise<{ ms: number; opened: number }> {
  const server = await ctx.db.mcpServer.create({ data: { tenantId: ctx.tenantId, name, transport: "streamable_http", url: `http://127.0.0.1:9/${name}`, configHash: "x", enabled: false } });
  await recordSnapshot(ctx, { serverId: server.id, tools, trigger: "list_changed", serverVersion: "1.0.0" });
  const t = performance.now();
  const result = await evaluateSnapshot(ctx, { serverId: server.id, trigger: "created" });
  return { ms: performance.now() - t, opened: result.opened.length };
}

export async function runCrossRulesBench(): Promise<void> {
  console.log(`cross-server rules: evaluating the N-th new server (${TOOLS} tools) of one team; median of ${SAMPLES}`);
  const base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-bench-cross-"));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: false, database: "bench" });
  try {
    await migrateDeploy(pg.url);
    const db = createDb(pg.url);
    for (const [label, makeTool] of [["distinct names svc<i>_op_<t>", distinctTool], ["identical template", templateTool]] as const) {
      for (const n of SIZES) {
        const tenant = await ensureTenant(db, `cross-${label.length}-${n}`, `Cross ${n}`);
        const ctx: ServiceContext = { tenantId: tenant.id, actor: { kind: "system", id: "bench" }, db };
        await seedFleet(db, tenant.id, "fleet", n - 1, makeTool);
        // Statistics as autovacuum would have them in steady state, not as a bulk load leaves them.
        await db.$executeRawUnsafe("ANALYZE");
        const samples: { ms: number; opened: number }[] = [];
        for (let k = 0; k < SAMPLES; k++) samples.push(await timeNewServer(ctx, `new-${k}`, Array.from({ length: TOOLS }, (_, t) => makeTool(n + k, t))));
        const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
        console.log(`  ${label.padEnd(30)} N=${String(n).padStart(5)}: ${ms[Math.floor(ms.length / 2)]!.toFixed(0).padStart(6)} ms per evaluation (max ${ms.at(-1)!.toFixed(0)} ms), alerts opened by the new server: ${samples.map((s) => s.opened).join(", ")}`);
      }
    }
    await db.$disconnect();
  } finally {
    await pg.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runCrossRulesBench();
