import type { EvaluationQueue } from "./evaluation-queue";
import { raiseDivergence } from "@/lib/alerts/raise-divergence";
import { endpointKeyOf } from "@/lib/cache/cache-key";
import { type CacheIdentity, type ObtainedListing, type ToolListCache } from "@/lib/cache/tool-list-cache";
import type { ServiceContext } from "@/lib/context";
import type { DiscoverySink } from "@/lib/discovery/discovery-session";
import type { Logger } from "@/lib/logger";
import type { Listing } from "@/lib/discovery/open-connection";
import { updateSessionState } from "@/lib/sessions/update-session-state";
import { authContextOf, type ServerConnectionConfig } from "@/lib/servers/server-config";
import { getSecretKey } from "@/lib/secrets";
import { secretRedactor } from "@/lib/servers/redact-secrets";
import type { ServerAuth } from "@/lib/servers/server-auth";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { countDiscoveryError, countListing, observeChangeToSnapshot } from "@/lib/metrics/worker-metrics";

/** How long a pushed change holds back new first-look judgements: debounce + listing + store, with room. */
const CHANGE_HOLD_MS = 2_000;

/**
 * Binds one discovery session to the database, inside the server's own tenant. Every write is
 * fenced by this worker's lease, so a worker that lost a server can no longer write for it.
 */
export function createSessionSink(
  ctx: ServiceContext,
  server: { serverId: string; name: string; configHash: string; config: ServerConnectionConfig; auth?: ServerAuth | null },
  workerId: string,
  logger: Logger,
  evaluations: EvaluationQueue,
  cache?: ToolListCache,
  /** Each stored listing's outcome (the identity prober schedules from it). */
  onListed?: (outcome: { kind: "created" | "confirmed"; firstLook: boolean }) => void,
): DiscoverySink<CacheMeta | null> {
  const { serverId, configHash } = server;
  const redact = secretRedactor(server.config, server.auth);
  const key = getSecretKey();
  const oauth = server.auth ? { tenantId: ctx.tenantId, serverId, grant: server.auth.grant, clientId: server.auth.clientId } : null;
  const authContext = authContextOf(key, server.config, oauth);
  // Lines from discovery and evaluation are plain text, redacted of this server's secrets and
  // prefixed with its name for people; failures among them go out at warn.
  const log = (line: string) => {
    const text = `${server.name}: ${redact(line)}`;
    if (/\b(fail(ed|ing)?|could not|error|unavailable|warning)\b/i.test(line)) logger.warn(text);
    else logger.info(text);
  };
  const identity: CacheIdentity = { tenantId: ctx.tenantId, serverId, endpointKey: endpointKeyOf(key, server.config), authContext };
  const hooks = cache ? cacheHooks(cache, identity, log) : {};
  /** When the first list_changed not yet followed by a stored listing arrived (the latency metric). */
  let changeNotedAt: number | undefined;
  return {
    log,
    ...hooks,
    // A pushed change is about to be listed and stored: first looks at new servers hold back for
    // a moment so the change is not stuck behind their judging (evaluation-queue.ts).
    listChanged: async () => {
      changeNotedAt ??= performance.now();
      evaluations.holdFirstLooks(CHANGE_HOLD_MS);
      await hooks.listChanged?.();
    },
    state: async (change) => {
      await updateSessionState(ctx, serverId, {
        status: change.status,
        reason: change.reason === undefined ? undefined : redact(change.reason),
        error: change.error ? { code: change.error.code, message: redact(change.error.message) } : change.error,
        connectedAt: change.connectedAt,
        workerId,
        leaseHolder: workerId,
        ...(change.facts
          ? {
              era: change.facts.era,
              protocolVersion: change.facts.protocolVersion,
              serverInfo: change.facts.serverInfo,
              capabilities: change.facts.capabilities,
              instructions: change.facts.instructions,
              transportUsed: change.facts.transportUsed,
              verdict: { value: change.facts.verdict, configHash },
            }
          : {}),
      });
      // Counted once stored: a state write retried after a database outage is not a second failure.
      if (change.error) countDiscoveryError(change.error.code);
    },
    listing: async (rawListing, { trigger, facts, cached }) => {
      const listing = { ...rawListing, warnings: rawListing.warnings.map(redact) };
      for (const warning of listing.warnings) log(`warning: ${warning}`);
      const result = await recordSnapshot(ctx, {
        serverId,
        tools: listing.tools,
        toolHashes: cached?.toolHashes,
        surface: listing.surface,
        trigger,
        protocolVersion: facts.protocolVersion,
        era: facts.era,
        serverVersion: facts.serverInfo?.version ?? null,
        ttlMs: listing.ttlMs,
        cacheScope: listing.cacheScope,
        authContext,
        cacheEntryId: cached?.entryId ?? null,
        fromCache: cached?.outcome === "hit",
        diagnostics: { pages: listing.pages, restarts: listing.restarts, dropped: listing.dropped, duplicateNames: listing.duplicateNames, warnings: listing.warnings, transport: facts.transportUsed },
        warnings: listing.warnings,
        leaseHolder: workerId,
        // Counted in the evaluation lane this listing requests (worker/evaluation-queue.ts).
        tokens: "later",
      });
      countListing(trigger, result.kind === "created");
      onListed?.({ kind: result.kind, firstLook: result.firstLook });
      if (trigger === "list_changed" && changeNotedAt !== undefined) {
        observeChangeToSnapshot((performance.now() - changeNotedAt) / 1000);
        changeNotedAt = undefined;
      }
      const source = cached ? `, cache ${cached.outcome}` : "";
      if (result.kind === "created") log(`snapshot ${result.snapshotId.slice(0, 8)}: ${listing.tools.length} tools${surfaceNote(listing.surface)} (${trigger}, ${listing.pages} page(s)${source})`);
      if (cached?.divergence) {
        const { opened } = await raiseDivergence(ctx, serverId, cached.divergence, { snapshotId: result.snapshotId, leaseHolder: workerId });
        log(`R31: the public tool list differs from another authorization context's (${opened ? "alert opened" : "alert updated"})`);
      }
      // Judged against the baselines once it is stored, fenced by the same lease, in the
      // worker's evaluation queue (off the listing slot). An unchanged re-list of a judged
      // snapshot needs nothing; one a dead worker left unjudged gets a catch-up that judges only
      // what no baseline or alert covers yet.
      if (result.evaluated) return;
      evaluations.request({ ctx, serverId, kind: result.kind, firstLook: result.firstLook, leaseHolder: workerId, log });
    },
  };
}

/**
 * The session's side of the tool-list cache. The cache is an optimisation: when its database
 * work fails the list is fetched directly, and only a failure of the fetch itself reaches the
 * session (which reconnects).
 */
type CacheMeta = Omit<ObtainedListing, "listing">;

function cacheHooks(cache: ToolListCache, identity: CacheIdentity, log: (line: string) => void): Pick<DiscoverySink<CacheMeta | null>, "obtainListing" | "listChanged"> {
  return {
    obtainListing: async (trigger, notBefore, fetch, facts) => {
      // Lists of the legacy era carry no ttlMs or cacheScope: nothing could ever be served from an
      // entry (stale at once, never shared), so a fleet of them skips the cache's five round trips.
      if (facts?.era === "legacy") return { listing: await fetch(), freshUntil: 0, cached: null };
      let fetchFailed: { error: unknown } | undefined;
      const guarded = () =>
        fetch().catch((error: unknown) => {
          fetchFailed = { error };
          throw error;
        });
      try {
        const { listing, ...cached } = await cache.obtain(identity, trigger, notBefore, guarded);
        return { listing, freshUntil: cached.freshUntil, cached };
      } catch (error) {
        if (fetchFailed) throw fetchFailed.error;
        log(`tool-list cache unavailable (${(error as Error).message}); listing directly`);
        const listing = await fetch();
        return { listing, freshUntil: 0, cached: { outcome: "miss", entryId: null, freshUntil: 0, divergence: null } satisfies CacheMeta };
      }
    },
    listChanged: async () => {
      await cache.invalidate(identity, "list_changed");
    },
  };
}

/** ", 3 prompts, 2 resources" for the log line: only the lists the server offers. */
function surfaceNote(surface: Listing["surface"]): string {
  if (!surface) return "";
  const parts = [
    surface.prompts ? `${surface.prompts.length} prompts` : "",
    surface.resources ? `${surface.resources.length} resources` : "",
    surface.resourceTemplates?.length ? `${surface.resourceTemplates.length} templates` : "",
    surface.instructions ? "instructions" : "",
  ].filter(Boolean);
  return parts.length ? `, ${parts.join(", ")}` : "";
}
