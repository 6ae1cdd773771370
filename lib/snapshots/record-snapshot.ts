import type { ServiceContext } from "@/lib/context";
import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { LeaseLostError } from "@/lib/errors";
import type { ToolLike } from "@/lib/diff";
import { hashTool, hashToolList } from "./canonical-hash";
import { combineContentHash, hashSurface, surfaceItems, type SurfaceListing } from "@/lib/surface/surface";
import { summarizeChange, summarizeSurfaceChange, withSurface, type GoneSurfaceItem } from "./summarize-change";
import { knownAddressCount, loadAddressCounter } from "@/lib/context-tokens/load-counter";

import type { SnapshotTrigger } from "@/lib/listing-trigger";

export type { SnapshotTrigger };

export type RecordSnapshotInput = {
  serverId: string;
  /** Raw tool objects as the server sent them, in server order. */
  tools: ReadonlyArray<{ name: string } & Record<string, unknown>>;
  /**
   * The tools' content addresses when the caller has them already (the tool-list cache hashed this
   * very listing a moment before): same order and length as `tools`, or ignored.
   */
  toolHashes?: readonly string[];
  /**
   * Prompts, resources, templates and instructions as listed (lib/surface). Absent: this listing did
   * not look at them (the snapshot is marked untracked, and the next tracked one diffs nothing against it).
   */
  surface?: SurfaceListing | null;
  trigger: SnapshotTrigger;
  protocolVersion?: string | null;
  era?: string | null;
  serverVersion?: string | null;
  ttlMs?: number | null;
  cacheScope?: string | null;
  /** Keyed hash of the credentials used ("anonymous" without any); see authContextOf. */
  authContext?: string | null;
  /** The tool-list cache entry the list came from, and whether it was served without a tools/list call. */
  cacheEntryId?: string | null;
  fromCache?: boolean;
  /** How the list was obtained (pages, restarts, dropped items, warnings); not hashed. */
  diagnostics?: object | null;
  /** Problems of this listing that still allowed a snapshot; stored on the session ([] clears). */
  warnings?: string[];
  /** When set, the write is fenced: it only commits while this worker holds the server's lease. */
  leaseHolder?: string;
  at?: Date;
  /**
   * When new versions get their context tokens: "now" (default) counts them in this write; "later"
   * stores only counts this process already holds for their content address and leaves the rest
   * NULL, for fillContextTokens (lib/context-tokens) to count off the listing path. The worker
   * defers: o200k counting was 13-17 % of its CPU in a 2,000-server sweep (bench/RESULTS.md,
   * eleventh pass), and nothing on the listing path reads the counts.
   */
  tokens?: "now" | "later";
};

export type RecordSnapshotResult = {
  kind: "created" | "confirmed";
  snapshotId: string;
  contentHash: string;
  /** Whether the snapshot has already been judged against the baselines (always false when created). */
  evaluated: boolean;
  /** A created snapshot is the server's first (nothing to change from). */
  firstLook: boolean;
};

type ConfirmRow = {
  outcome: string;
  snapshot_id: string | null;
  evaluated: boolean | null;
  server_version: string | null;
  prev_keys: Array<[string, string]> | null;
  gone: ToolLike[] | null;
  prev_surface_tracked: boolean | null;
  prev_surface_keys: Array<[string, string, string]> | null;
  surface_gone: GoneSurfaceItem[] | null;
};
type RecordRow = { outcome: string; snapshot_id: string | null };

/** Another write for this server can slip in between summarising and writing (a hand-over); then summarise again. */
const MAX_ATTEMPTS = 3;

/**
 * Stores one complete tool list. Tool definitions are content-addressed, so an unchanged tool is
 * never stored twice; an unchanged list writes no snapshot and only moves "last confirmed".
 * Each write is one statement (SQL functions in the listing_write_path migration) under the
 * server's advisory lock and lease fence: an unchanged re-list is one round trip, a changed list
 * two (read what changed, write snapshot + tool versions + session + NOTIFY together).
 */
export async function recordSnapshot(ctx: ServiceContext, input: RecordSnapshotInput): Promise<RecordSnapshotResult> {
  const at = input.at ?? new Date();
  const given = input.toolHashes?.length === input.tools.length ? input.toolHashes : undefined;
  const hashed = input.tools.map((tool, i) => ({ name: tool.name, hash: given?.[i] ?? hashTool(tool), tool: tool as ToolLike }));
  const items = surfaceItems(input.surface);
  // Tools-only servers keep the hash they always had: an upgrade writes no new snapshot for them.
  const contentHash = combineContentHash(hashToolList(hashed), hashSurface(items));
  const surfaceKeys = items.map((i) => [i.kind, i.name, i.hash]);
  const warnings = input.warnings === undefined ? {} : { setWarnings: true, warnings: input.warnings.length ? input.warnings : null };
  const base = { tenantId: ctx.tenantId, serverId: input.serverId, worker: input.leaseHolder ?? null, at: at.toISOString(), contentHash, cacheEntryId: input.cacheEntryId ?? null, ...warnings };

  for (let attempt = 1; ; attempt++) {
    const keys = hashed.map((t) => [t.name, t.hash]);
    const [head] = await queryRows<ConfirmRow>(ctx.db, Prisma.sql`SELECT * FROM tw_confirm_listing(${JSON.stringify({ ...base, keys, surfaceKeys, surfaceTracked: Boolean(input.surface) })}::jsonb)`);
    if (!head || head.outcome === "lease_lost") throw new LeaseLostError(input.serverId);
    if (head.outcome === "confirmed") return { kind: "confirmed", snapshotId: head.snapshot_id!, contentHash, evaluated: head.evaluated === true, firstLook: false };

    const previous = head.snapshot_id;
    // The surface is diffed only against a snapshot that looked at it too (not against one from before tracking).
    const surfaceChange = previous && head.prev_surface_tracked && input.surface ? summarizeSurfaceChange(head.prev_surface_keys ?? [], head.surface_gone ?? [], items) : null;
    const diffSummary = previous ? withSurface(summarizeChange(head.prev_keys ?? [], head.gone ?? [], hashed), surfaceChange) : null;
    const uniqueItems = new Map(items.map((i) => [i.hash, i]));
    const serverVersion = input.serverVersion ?? null;
    const unique = new Map(hashed.map((t) => [t.hash, t]));
    // Context tokens are counted once per version, when its row is inserted: versions the previous
    // snapshot had exist already (the insert skips them), so a one-tool change counts one tool; and
    // a version another server listed already is counted from memory (loadAddressCounter).
    const known = new Set([...(head.prev_keys ?? []).map(([, hash]) => hash), ...(head.prev_surface_keys ?? []).map(([, , hash]) => hash)]);
    const count = input.tokens === "later" ? (kind: string, hash: string) => knownAddressCount(kind, hash) ?? null : await loadAddressCounter();
    const tokensOf = (hash: string, kind: string, definition: unknown) => (known.has(hash) ? null : count(kind, hash, definition));
    const payload = {
      ...base,
      expectedPrev: previous,
      tools: [...unique.values()].map((t) => ({ hash: t.hash, name: t.name, definition: t.tool, contextTokens: tokensOf(t.hash, "tool", t.tool) })),
      order: hashed.map((t) => t.hash),
      surface: [...uniqueItems.values()].map((i) => ({ hash: i.hash, name: i.name, kind: i.kind, definition: i.definition, contextTokens: tokensOf(i.hash, i.kind, i.definition) })),
      surfaceOrder: items.map((i) => i.hash),
      surfaceTracked: Boolean(input.surface),
      toolCount: hashed.length,
      trigger: input.trigger,
      protocolVersion: input.protocolVersion ?? null,
      era: input.era ?? null,
      serverVersion,
      serverVersionChanged: previous !== null && head.server_version !== serverVersion,
      notified: input.trigger === "list_changed",
      authContext: input.authContext ?? null,
      fromCache: input.fromCache ?? false,
      ttlMs: input.ttlMs ?? null,
      cacheScope: input.cacheScope ?? null,
      diagnostics: input.diagnostics ?? null,
      diffSummary,
    };
    const [row] = await queryRows<RecordRow>(ctx.db, Prisma.sql`SELECT * FROM tw_record_snapshot(${JSON.stringify(payload)}::jsonb)`);
    if (!row || row.outcome === "lease_lost") throw new LeaseLostError(input.serverId);
    if (row.outcome === "server_gone") throw new Error(`Server ${input.serverId} is not in tenant ${ctx.tenantId}`);
    if (row.outcome === "created") return { kind: "created", snapshotId: row.snapshot_id!, contentHash, evaluated: false, firstLook: previous === null };
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Server ${input.serverId}: its latest snapshot kept changing while this listing was stored`);
  }
}
