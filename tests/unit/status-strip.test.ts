import { describe, expect, it } from "vitest";
import { foldStatusStrip, stripWindow } from "@/lib/servers/status-strip";

const FROM = new Date("2026-12-02T13:00:00.000Z");
const H = 3_600_000;

describe("foldStatusStrip()", () => {
  it.each([
    ["no record at all: every bucket unknown", null, [], [null, null, null, null]],
    ["live throughout: every bucket live", "live", [], ["live", "live", "live", "live"]],
    ["a minute down in bucket 1 marks the whole bucket down, then live", "live", [{ b: 1, seen: ["down", "live"], last: "live", firstMs: H + 60_000 }], ["live", "down", "live", "live"]],
    ["down carried into bucket 2 until recovery in it", "live", [{ b: 1, seen: ["down"], last: "down", firstMs: H + 1 }, { b: 2, seen: ["live"], last: "live", firstMs: 2 * H + 5 }], ["live", "down", "down", "live"]],
    ["a change at the very start of a bucket: the carried status was not held in it", "down", [{ b: 2, seen: ["live"], last: "live", firstMs: 2 * H }], ["down", "down", "live", "live"]],
    ["first record inside the window: unknown before it", null, [{ b: 2, seen: ["connecting", "live"], last: "live", firstMs: 2 * H + 10 }], [null, null, "live", "live"]],
    ["connecting ranks below live, polling above it, auth_required above degraded", "live", [{ b: 0, seen: ["connecting"], last: "connecting", firstMs: 10 }, { b: 1, seen: ["polling"], last: "polling", firstMs: H + 1 }, { b: 3, seen: ["degraded", "auth_required"], last: "auth_required", firstMs: 3 * H + 1 }], ["live", "polling", "polling", "auth_required"]],
    ["groups outside the window are ignored", "live", [{ b: 7, seen: ["down"], last: "down", firstMs: 7 * H }], ["live", "live", "live", "live"]],
  ] as const)("%s", (_name, start, groups, expected) => {
    const strip = foldStatusStrip(FROM, start, groups.map((g) => ({ ...g, seen: [...g.seen] })), 4, H);
    expect(strip).toEqual({ from: "2026-12-02T13:00:00.000Z", bucketMinutes: 60, buckets: expected });
  });
});

describe("stripWindow()", () => {
  it("ends at the end of the current clock hour and spans 24 of them", () => {
    expect(stripWindow(new Date("2026-12-03T12:34:56.789Z"))).toEqual({ from: new Date("2026-12-02T13:00:00.000Z"), to: new Date("2026-12-03T13:00:00.000Z") });
    expect(stripWindow(new Date("2026-12-03T12:00:00.000Z"))).toEqual({ from: new Date("2026-12-02T13:00:00.000Z"), to: new Date("2026-12-03T13:00:00.000Z") });
  });
});
