import { describe, expect, it } from "vitest";
import { nextStatus, type SessionEvent, type SessionStatusName } from "@/lib/discovery/session-status";

const failed = (n: number): SessionEvent => ({ kind: "failed", consecutiveFailures: n, downAfter: 3 });

const cases: Array<[SessionStatusName, SessionEvent, SessionStatusName]> = [
  ["pending", { kind: "start" }, "connecting"],
  ["connecting", { kind: "connected", push: true }, "live"],
  ["connecting", { kind: "connected", push: false }, "polling"],
  ["connecting", failed(1), "degraded"],
  ["degraded", failed(2), "degraded"],
  ["degraded", failed(3), "down"],
  ["down", failed(7), "down"],
  ["degraded", { kind: "start" }, "degraded"],
  ["down", { kind: "start" }, "down"],
  ["down", { kind: "connected", push: true }, "live"],
  ["degraded", { kind: "connected", push: false }, "polling"],
  ["live", failed(1), "degraded"],
  ["live", { kind: "channel-lost" }, "polling"],
  ["polling", { kind: "channel-lost" }, "polling"],
  ["live", { kind: "stop" }, "stopped"],
  ["down", { kind: "stop" }, "stopped"],
];

describe("nextStatus()", () => {
  it.each(cases)("%s + %o → %s", (from, event, to) => {
    expect(nextStatus(from, event)).toBe(to);
  });
});
