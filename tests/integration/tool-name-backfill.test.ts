import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldName, nameSkeleton, siblingKey } from "@/lib/detection/name-keys";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";

// The tool-name index migration backfills servers that already exist from their latest snapshot,
// computing the index keys in SQL. Own throwaway cluster: the data must exist before the migration.
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
const INDEX_MIGRATION = "20261201151500_tool_name_index";

/** name → [folded, skeleton, sibling key], written by hand. */
const EXPECTED: Record<string, [string, string, string]> = {
  "svc2_op_3": ["svc2_op_3", "svc2op3", "svcop"],
  "List-Items_V2": ["list-items_v2", "listitemsv2", "listitem"],
  "list_items_v3": ["list_items_v3", "listitemsv3", "listitem"],
  "send_emails": ["send_emails", "sendemails", "sendemail"],
  "send_emai1": ["send_emai1", "sendemai1", "sendemai"],
  "api_v1.2_call": ["api_v1.2_call", "apiv12call", "apicall"],
  "access_token": ["access_token", "accesstoken", "accesstoken"],
  "Worker 2": ["worker 2", "worker2", "worker"],
  "dev_tool": ["dev_tool", "devtool", "devtool"],
};

describe("tool-name index migration", () => {
  let tmp: string;
  let db: EmbeddedPostgres;
  let client: pg.Client;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-backfill-test-"));
    const before = path.join(tmp, "migrations");
    fs.cpSync(MIGRATIONS_DIR, before, { recursive: true });
    // The schema as it was before the index: the index migration and every later one are left out
    // (later ones may alter the index's tables); the full deploy below applies them all.
    for (const dir of fs.readdirSync(before)) if (dir >= INDEX_MIGRATION && fs.statSync(path.join(before, dir)).isDirectory()) fs.rmSync(path.join(before, dir), { recursive: true });
    db = await startEmbeddedPostgres({ dataDir: path.join(tmp, "pg"), persistent: false, database: "backfill_test" });
    await migrateDeploy(db.url, { migrationsDir: before });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await db?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("backfills each server's latest snapshot with the keys name-keys.ts computes, and their deletion variants", async () => {
    const names = Object.keys(EXPECTED);
    for (const [name, [folded, skeleton, sibling]] of Object.entries(EXPECTED)) {
      expect([foldName(name), nameSkeleton(name), siblingKey(name)], name).toEqual([folded, skeleton, sibling]);
    }
    const tenant = (await client.query(`INSERT INTO tenant (id, slug, name) VALUES (gen_random_uuid(), 'bf', 'bf') RETURNING id`)).rows[0].id;
    const server = (await client.query(`INSERT INTO mcp_server (id, tenant_id, name, transport, config_hash, updated_at) VALUES (gen_random_uuid(), $1, 's', 'stdio', 'x', now()) RETURNING id`, [tenant])).rows[0].id;
    const ids: string[] = [];
    for (const name of [...names, "gone_tool"]) {
      ids.push((await client.query(`INSERT INTO tool_version (id, tenant_id, hash, name, definition) VALUES (gen_random_uuid(), $1, $2, $3, '{}') RETURNING id`, [tenant, `h-${name}`, name])).rows[0].id);
    }
    const snapshot = `INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, tool_version_ids, taken_at) VALUES (gen_random_uuid(), $1, $2, 'x', 1, 'poll', $3::uuid[], $4)`;
    await client.query(snapshot, [tenant, server, [ids.at(-1)], "2026-01-01T00:00:00Z"]); // an older list: not indexed
    await client.query(snapshot, [tenant, server, ids.slice(0, -1), "2026-02-01T00:00:00Z"]);

    await migrateDeploy(db.url, { migrationsDir: MIGRATIONS_DIR });

    const rows = (await client.query(`SELECT name, folded, skeleton, sibling_key, hash FROM tool_name_entry WHERE server_id = $1 ORDER BY name`, [server])).rows;
    expect(rows).toEqual(
      names.sort().map((name) => ({ name, folded: EXPECTED[name]![0], skeleton: EXPECTED[name]![1], sibling_key: EXPECTED[name]![2], hash: `h-${name}` })),
    );
    const variants = (await client.query(`SELECT variant FROM tool_name_variant WHERE tenant_id = $1 AND skeleton = 'sendemai1' ORDER BY variant`, [tenant])).rows.map((r) => r.variant);
    // "sendemai1" and each one-character deletion of it.
    expect(variants).toEqual(["sendemai1", "endemai1", "sndemai1", "sedemai1", "senemai1", "sendmai1", "sendeai1", "sendemi1", "sendema1", "sendemai"].sort());
  });
});
