import type { ServiceContext } from "../lib/context";
import type { DiscoverySink } from "../lib/discovery/discovery-session";
import { updateSessionState } from "../lib/sessions/update-session-state";
import { recordSnapshot } from "../lib/snapshots/record-snapshot";

/** Binds one discovery session to the database, inside the server's own tenant. */
export function createSessionSink(ctx: ServiceContext, serverId: string, workerId: string, log: (line: string) => void): DiscoverySink {
  return {
    log,
    state: (change) =>
      updateSessionState(ctx, serverId, {
        status: change.status,
        reason: change.reason,
        error: change.error,
        connectedAt: change.connectedAt,
        workerId,
        ...(change.facts
          ? {
              era: change.facts.era,
              protocolVersion: change.facts.protocolVersion,
              serverInfo: change.facts.serverInfo,
              capabilities: change.facts.capabilities,
              instructions: change.facts.instructions,
            }
          : {}),
      }),
    listing: async (listing, { trigger, facts }) => {
      if (listing.dropped.length) {
        log(`dropped ${listing.dropped.length} malformed tool(s): ${listing.dropped.map((d) => `page ${d.page} #${d.index} ${d.reason}`).join("; ")}`);
      }
      if (listing.duplicateNames.length) log(`duplicate tool names in one list: ${listing.duplicateNames.join(", ")}`);
      const result = await recordSnapshot(ctx, {
        serverId,
        tools: listing.tools,
        trigger,
        protocolVersion: facts.protocolVersion,
        era: facts.era,
        serverVersion: facts.serverInfo?.version ?? null,
        ttlMs: listing.ttlMs,
        cacheScope: listing.cacheScope,
      });
      if (result.kind === "created") log(`snapshot ${result.snapshotId.slice(0, 8)}: ${listing.tools.length} tools (${trigger})`);
    },
  };
}
