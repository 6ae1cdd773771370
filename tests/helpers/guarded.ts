import { createGuardedFetch, createTargetFetches, type GuardedFetch, type TargetFetches } from "@/lib/discovery/node/guarded-fetch";

// The guarded fetch is required wherever lib/ or worker/ make a request (issue 13): suites that are
// not about the network rule use one that may reach loopback fixtures, as an administrator's team may.
let open: GuardedFetch | undefined;
let targets: TargetFetches | undefined;

/** A guarded fetch that allows private and loopback addresses (metadata etc. stay refused). */
export function testFetch(): GuardedFetch {
  open ??= createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024 });
  return open;
}

/** The worker's pair of guarded fetches, for a Scheduler in a suite (with privateTargets: "all" unless under test). */
export function testTargets(): TargetFetches {
  targets ??= createTargetFetches({ maxResponseBytes: 16 * 1024 * 1024 });
  return targets;
}
