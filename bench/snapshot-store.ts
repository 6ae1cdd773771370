import fs from "node:fs";
import path from "node:path";
import { createDb } from "@/lib/db";
import { hashTool, hashToolList } from "@/lib/snapshots/canonical-hash";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";

// `npm run bench`: prints numbers; asserts nothing. Runs against a throwaway real Postgres.
const TOOLS = Number(process.env.BENCH_TOOLS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
// Issue 5's storage question: N snapshots of a TOOLS-tool server, one tool changed each time.
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 1000);

const makeTool = (i: number, rev = 0) => ({
  name: `tool_${i}`,
  title: `Tool number ${i}`,
  description: `Does thing ${i}. Revision ${rev}. `.repeat(8),
  inputSchema: {
    type: "object",
    properties: { id: { type: "string", description: "Identifier" }, limit: { type: "integer", minimum: 1, maximum: 100 }, mode: { enum: ["a", "b", "c"] } },
    required: ["id"],
  },
  annotations: { readOnlyHint: i % 2 === 0 },
});

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `p50 ${q(0.5).toFixed(2)} ms  p95 ${q(0.95).toFixed(2)} ms  max ${s.at(-1)!.toFixed(2)} ms  (n=${s.length})`;
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

console.log(`Toolwatch bench — node ${process.version}, ${TOOLS} tools per list, ${ROUNDS} rounds\n`);

// 1. Canonical hashing (pure CPU)
const tools = Array.from({ length: TOOLS }, (_, i) => makeTool(i));
const hashSamples: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const [ms] = await time(() => hashToolList(tools.map((t) => ({ name: t.name, hash: hashTool(t) }))));
  hashSamples.push(ms);
}
console.log(`hash a ${TOOLS}-tool list (RFC 8785 + sha256):        ${stats(hashSamples)}`);

// 2. Snapshot storage against Postgres
const base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-bench-"));
const pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: false, database: "bench" });
try {
  await migrateDeploy(pg.url);
  const db = createDb(pg.url);
  const tenant = await ensureTenant(db, "bench", "Bench");
  const ctx = { tenantId: tenant.id, actor: { kind: "system" as const, id: "bench" }, db };
  const server = await db.mcpServer.create({ data: { tenantId: tenant.id, name: "bench", transport: "stdio", command: "x", configHash: "x" } });

  const [firstMs] = await time(() => recordSnapshot(ctx, { serverId: server.id, tools, trigger: "connect" }));
  console.log(`first snapshot of ${TOOLS} tools:                   ${firstMs.toFixed(1)} ms`);

  const confirm: number[] = [];
  for (let r = 0; r < ROUNDS; r++) confirm.push((await time(() => recordSnapshot(ctx, { serverId: server.id, tools, trigger: "poll" })))[0]);
  console.log(`unchanged re-list (confirmation only):           ${stats(confirm)}`);

  const change: number[] = [];
  let current = tools;
  let naiveBytes = Buffer.byteLength(JSON.stringify(tools));
  for (let r = 1; r < SNAPSHOTS; r++) {
    current = current.map((t, i) => (i === r % TOOLS ? makeTool(i, r) : t));
    naiveBytes += Buffer.byteLength(JSON.stringify(current));
    change.push((await time(() => recordSnapshot(ctx, { serverId: server.id, tools: current, trigger: "list_changed" })))[0]);
  }
  console.log(`re-list with one tool changed (new snapshot, incl. change summary): ${stats(change)}`);

  const [versions, snapshots] = await Promise.all([db.toolVersion.count({ where: { tenantId: tenant.id } }), db.snapshot.count({ where: { tenantId: tenant.id } })]);
  const [sizes] = await db.$queryRaw<{ snapshot: bigint; tool_version: bigint }[]>`
    SELECT pg_total_relation_size('snapshot') AS snapshot, pg_total_relation_size('tool_version') AS tool_version`;
  const stored = Number(sizes!.snapshot) + Number(sizes!.tool_version);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  console.log(`storage, ${snapshots} snapshots of a ${TOOLS}-tool server (one tool changed each time, plus ${ROUNDS} confirmations):`);
  console.log(`  content-addressed: ${snapshots} snapshot rows + ${versions} tool-version rows = ${snapshots + versions} rows, ${mb(stored)} on disk (tables + indexes)`);
  console.log(`  naive full copies: ${snapshots * TOOLS} tool rows, ${mb(naiveBytes)} of JSON alone (before any row or index overhead)`);
  await db.$disconnect();
} finally {
  await pg.stop();
  fs.rmSync(base, { recursive: true, force: true });
}
