import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, toPage } from "@/lib/pagination";

const ID = "0b6f7c1e-3a52-4d6e-9a43-2f1c8d5e7a10";
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("lib/pagination cursors", () => {
  it("decodeCursor() returns what encodeCursor() wrote for the same list", () => {
    const cursor = encodeCursor("servers:toolCount:desc", [null, "node-7", ID]);
    expect(decodeCursor(cursor, "servers:toolCount:desc", ["nullable-number", "string", "uuid"])).toEqual([null, "node-7", ID]);
  });

  it.each([
    ["not base64 JSON", "%%%"],
    ["another list's cursor", raw({ k: "alerts", v: ["2026-11-30T00:00:00.000Z", ID] })],
    ["the right list, a value of the wrong type", raw({ k: "snapshots", v: [42, ID] })],
    ["a date that is not one", raw({ k: "snapshots", v: ["yesterday", ID] })],
    ["an id that is not a uuid", raw({ k: "snapshots", v: ["2026-11-30T00:00:00.000Z", "1 OR 1=1"] })],
    ["too few values", raw({ k: "snapshots", v: [ID] })],
    ["null where a value is required", raw({ k: "snapshots", v: [null, ID] })],
    ["a JSON array, not the envelope", raw(["2026-11-30T00:00:00.000Z", ID])],
  ])("decodeCursor() refuses %s with a 400 naming cursor", (_, cursor) => {
    expect(() => decodeCursor(cursor, "snapshots", ["date", "uuid"])).toThrow(expect.objectContaining({ code: "INVALID_INPUT", message: expect.stringContaining("cursor") }));
  });

  it("a bigint key beyond Postgres' bigint is refused, one inside is kept", () => {
    expect(() => decodeCursor(raw({ k: "audit", v: ["99999999999999999999"] }), "audit", ["bigint"])).toThrow(/cursor/);
    expect(decodeCursor(raw({ k: "audit", v: ["9223372036854775807"] }), "audit", ["bigint"])).toEqual(["9223372036854775807"]);
  });

  it("toPage() uses the extra row only to say there is more, and the cursor names the last row returned", () => {
    const rows = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const page = toPage(rows, 2, "demo", (r) => [r.n], (r) => r.n * 10);
    expect(page.items).toEqual([10, 20]);
    expect(decodeCursor(page.nextCursor!, "demo", ["number"])).toEqual([2]);
    expect(toPage(rows, 3, "demo", (r) => [r.n], (r) => r.n).nextCursor).toBeNull();
  });
});
