// The discovery session's status as a small explicit state machine. Pure and table-tested: the
// session reports events; this decides the status shown to users and stored with each transition.
//
//   pending ─start→ connecting ─connected(push)→ live
//                       │       ─connected(no push)→ polling
//                       └─failed→ degraded ─failed×N→ down
//   live/polling ─lost / refresh failed→ degraded ─reconnected→ live/polling
//   any ─auth refused (OAuth, needs a person)→ auth_required ─connected→ live/polling
//   any ─stop→ stopped

export type SessionStatusName = "pending" | "connecting" | "live" | "polling" | "degraded" | "down" | "stopped" | "auth_required";

export type SessionEvent =
  | { kind: "start" }
  | { kind: "connected"; push: boolean }
  | { kind: "channel-lost" }
  | { kind: "failed"; consecutiveFailures: number; downAfter: number }
  | { kind: "auth-required" }
  | { kind: "stop" };

export function nextStatus(current: SessionStatusName, event: SessionEvent): SessionStatusName {
  switch (event.kind) {
    case "stop":
      return "stopped";
    case "start":
      // A reconnect attempt after failures keeps showing the failure state, not "connecting".
      return current === "degraded" || current === "down" || current === "auth_required" ? current : "connecting";
    case "connected":
      return event.push ? "live" : "polling";
    case "channel-lost":
      // The connection still answers but no longer pushes changes: keep watching by polling.
      return current === "live" ? "polling" : current;
    case "failed":
      return event.consecutiveFailures >= event.downAfter ? "down" : "degraded";
    case "auth-required":
      return "auth_required";
  }
}
