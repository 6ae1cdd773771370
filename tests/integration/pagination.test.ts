import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { listSnapshots } from "@/lib/servers/list-snapshots";
import { insertServerRow, createTenantContext } from "@/tests/helpers/factories";

// One cursor scheme (lib/pagination): rows that share their sort key are told apart by id, so a
// page boundary that falls among them neither skips nor repeats one.
describe("snapshot timeline paging", () => {
  let ctx: ServiceContext;
  let serverId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    ctx = await createTenantContext("paging");
    serverId = (await insertServerRow(ctx, "ties", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} })).id;
    const sameInstant = new Date("2026-11-30T12:00:00.000Z");
    for (let i = 0; i < 5; i++) ids.push(randomUUID());
    await ctx.db.snapshot.createMany({
      data: [
        ...ids.map((id, i) => ({ id, tenantId: ctx.tenantId, serverId, contentHash: `tie-${i}`, toolCount: i, trigger: "poll", takenAt: sameInstant, toolVersionIds: [] })),
        { tenantId: ctx.tenantId, serverId, contentHash: "older", toolCount: 9, trigger: "poll", takenAt: new Date("2026-11-29T12:00:00.000Z"), toolVersionIds: [] },
      ],
    });
  });

  it("listSnapshots() with page size 1 returns each of several snapshots sharing one takenAt exactly once", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const page = await listSnapshots(ctx, serverId, { limit: "1", ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((s) => s.contentHash));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen)).toEqual(new Set(["tie-0", "tie-1", "tie-2", "tie-3", "tie-4", "older"]));
    expect(seen.at(-1)).toBe("older");
  });

  it("listSnapshots() refuses a cursor it did not issue with a 400 naming the cursor", async () => {
    await expect(listSnapshots(ctx, serverId, { cursor: "2026-11-30T12:00:00.000Z" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("cursor") });
    const alertsCursor = Buffer.from(JSON.stringify({ k: "alerts", v: ["2026-11-30T12:00:00.000Z", randomUUID()] })).toString("base64url");
    await expect(listSnapshots(ctx, serverId, { cursor: alertsCursor })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
