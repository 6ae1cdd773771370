import { describe, expect, it } from "vitest";
import { DiscoveryError } from "@/lib/discovery/discovery-error";
import { walkToolPages, type RawToolPage } from "@/lib/discovery/walk-tool-pages";

const t = (name: string) => ({ name, inputSchema: { type: "object" } });

function pages(map: Record<string, RawToolPage>) {
  const calls: Array<string | undefined> = [];
  const fetch = async (cursor: string | undefined) => {
    calls.push(cursor);
    const page = map[cursor ?? "<start>"];
    if (!page) throw new Error(`unexpected cursor ${cursor}`);
    return page;
  };
  return { fetch, calls };
}

describe("walkToolPages()", () => {
  it("walks every page and treats an empty-string cursor as a real cursor", async () => {
    const { fetch, calls } = pages({
      "<start>": { tools: [t("a"), t("b")], nextCursor: "" },
      "": { tools: [t("c")], nextCursor: "c4" },
      c4: { tools: [t("d")] },
    });
    const listing = await walkToolPages(fetch, { maxPages: 10 });
    expect(listing.tools.map((x) => x.name)).toEqual(["a", "b", "c", "d"]);
    expect(listing.pages).toBe(3);
    expect(calls).toEqual([undefined, "", "c4"]);
  });

  it("keeps the minimum ttlMs over pages and private scope if any page is private", async () => {
    const { fetch } = pages({
      "<start>": { tools: [t("a")], nextCursor: "x", ttlMs: 30_000, cacheScope: "public" },
      x: { tools: [t("b")], ttlMs: 5_000, cacheScope: "private" },
    });
    const listing = await walkToolPages(fetch, { maxPages: 10 });
    expect(listing.ttlMs).toBe(5_000);
    expect(listing.cacheScope).toBe("private");
  });

  it("reports no ttl and no scope for legacy servers that send none", async () => {
    const { fetch } = pages({ "<start>": { tools: [t("a")] } });
    expect(await walkToolPages(fetch, { maxPages: 10 })).toMatchObject({ ttlMs: null, cacheScope: null });
  });

  it("fails with CURSOR_CYCLE when a server hands out a cursor twice", async () => {
    const { fetch } = pages({ "<start>": { tools: [t("a")], nextCursor: "p" }, p: { tools: [t("b")], nextCursor: "p" } });
    await expect(walkToolPages(fetch, { maxPages: 10 })).rejects.toMatchObject({ code: "CURSOR_CYCLE" });
  });

  it("fails with PAGE_LIMIT on endless fresh cursors instead of looping forever", async () => {
    let n = 0;
    const error = await walkToolPages(async () => ({ tools: [t(`t${n}`)], nextCursor: `c${n++}` }), { maxPages: 25 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).code).toBe("PAGE_LIMIT");
    expect(n).toBe(25);
  });

  it("salvages valid tools and reports each dropped item with page, index and reason", async () => {
    const { fetch } = pages({
      "<start>": { tools: [t("ok"), { name: "bad" }, "junk", { inputSchema: { type: "object" } }], nextCursor: "2" },
      "2": { tools: [{ name: "arr", inputSchema: { type: "array" } }, t("ok2")] },
    });
    const listing = await walkToolPages(fetch, { maxPages: 10 });
    expect(listing.tools.map((x) => x.name)).toEqual(["ok", "ok2"]);
    expect(listing.dropped).toEqual([
      { page: 1, index: 1, reason: 'tool "bad": inputSchema is not an object' },
      { page: 1, index: 2, reason: "not an object" },
      { page: 1, index: 3, reason: "missing name" },
      { page: 2, index: 0, reason: 'tool "arr": inputSchema.type is not "object"' },
    ]);
  });

  it("flags duplicate names within one list", async () => {
    const { fetch } = pages({ "<start>": { tools: [t("a"), t("b"), t("a")] } });
    expect((await walkToolPages(fetch, { maxPages: 10 })).duplicateNames).toEqual(["a"]);
  });

  it("rejects a page without a tools array", async () => {
    const { fetch } = pages({ "<start>": { tools: undefined as unknown as unknown[] } });
    await expect(walkToolPages(fetch, { maxPages: 10 })).rejects.toMatchObject({ code: "INVALID_RESULT" });
  });
});

describe("walkToolPages() restarts", () => {
  it("restarts from page 1 when the server rejects a cursor with -32602, keeping no stale pages", async () => {
    let rejected = false;
    const seen: Array<string | undefined> = [];
    const listing = await walkToolPages(
      async (cursor) => {
        seen.push(cursor);
        if (cursor === undefined) return { tools: [t("a")], nextCursor: "2" };
        if (!rejected) {
          rejected = true;
          throw Object.assign(new Error("Invalid cursor"), { code: -32602 });
        }
        return { tools: [t("b")] };
      },
      { maxPages: 10 },
    );
    expect(listing.tools.map((x) => x.name)).toEqual(["a", "b"]);
    expect(listing.restarts).toBe(1);
    expect(seen).toEqual([undefined, "2", undefined, "2"]);
  });

  it("does not treat -32602 on the first page as a cursor problem", async () => {
    const error = Object.assign(new Error("bad params"), { code: -32602 });
    await expect(walkToolPages(async () => Promise.reject(error), { maxPages: 10 })).rejects.toBe(error);
  });

  it("restarts when a list_changed arrives mid-walk and gives up with LIST_UNSTABLE if it never settles", async () => {
    let changes = 0;
    let calls = 0;
    const listing = await walkToolPages(
      async (cursor) => {
        calls++;
        if (calls === 2) changes++; // a notification lands while page 2 is in flight
        return cursor === undefined ? { tools: [t("a")], nextCursor: "2" } : { tools: [t("b")] };
      },
      { maxPages: 10, changeCount: () => changes },
    );
    expect(listing.restarts).toBe(1);
    expect(listing.tools.map((x) => x.name)).toEqual(["a", "b"]);

    await expect(
      walkToolPages(async (cursor) => (changes++, cursor === undefined ? { tools: [t("a")], nextCursor: "2" } : { tools: [t("b")] }), {
        maxPages: 10,
        changeCount: () => changes,
        maxRestarts: 2,
      }),
    ).rejects.toMatchObject({ code: "LIST_UNSTABLE" });
  });

  it("fails with REPEATED_PAGE when fresh cursors keep returning the same page", async () => {
    let n = 0;
    await expect(walkToolPages(async () => ({ tools: [t("a"), t("b")], nextCursor: `p${n++}` }), { maxPages: 100 })).rejects.toMatchObject({
      code: "REPEATED_PAGE",
    });
    expect(n).toBe(2);
  });
});
