import type { ServiceContext } from "../context";
import { LeaseLostError } from "../errors";
import type { ToolLike } from "../diff";
import { hashTool, hashToolList } from "./canonical-hash";
import { summarizeChange } from "./summarize-change";

import type { SnapshotTrigger } from "../listing-trigger";

export type { SnapshotTrigger };

export type RecordSnapshotInput = {
  serverId: string;
  /** Raw tool objects as the server sent them, in server order. */
  tools: ReadonlyArray<{ name: string } & Record<string, unknown>>;
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

type ConfirmRow = { outcome: string; snapshot_id: string | null; evaluated: boolean | null; server_version: string | null; prev_keys: Array<[string, string]> | null; gone: ToolLike[] | null };
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
  const hashed = input.tools.map((tool) => ({ name: tool.name, hash: hashTool(tool), tool: tool as ToolLike }));
  const contentHash = hashToolList(hashed);
  const warnings = input.warnings === undefined ? {} : { setWarnings: true, warnings: input.warnings.length ? input.warnings : null };
  const base = { tenantId: ctx.tenantId, serverId: input.serverId, worker: input.leaseHolder ?? null, at: at.toISOString(), contentHash, cacheEntryId: input.cacheEntryId ?? null, ...warnings };

  for (let attempt = 1; ; attempt++) {
    const keys = hashed.map((t) => [t.name, t.hash]);
    const [head] = await ctx.db.$queryRaw<ConfirmRow[]>`SELECT * FROM tw_confirm_listing(${JSON.stringify({ ...base, keys })}::jsonb)`;
    if (!head || head.outcome === "lease_lost") throw new LeaseLostError(input.serverId);
    if (head.outcome === "confirmed") return { kind: "confirmed", snapshotId: head.snapshot_id!, contentHash, evaluated: head.evaluated === true, firstLook: false };

    const previous = head.snapshot_id;
    const diffSummary = previous ? summarizeChange(head.prev_keys ?? [], head.gone ?? [], hashed) : null;
    const serverVersion = input.serverVersion ?? null;
    const unique = new Map(hashed.map((t) => [t.hash, t]));
    const payload = {
      ...base,
      expectedPrev: previous,
      tools: [...unique.values()].map((t) => ({ hash: t.hash, name: t.name, definition: t.tool })),
      order: hashed.map((t) => t.hash),
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
    const [row] = await ctx.db.$queryRaw<RecordRow[]>`SELECT * FROM tw_record_snapshot(${JSON.stringify(payload)}::jsonb)`;
    if (!row || row.outcome === "lease_lost") throw new LeaseLostError(input.serverId);
    if (row.outcome === "server_gone") throw new Error(`Server ${input.serverId} is not in tenant ${ctx.tenantId}`);
    if (row.outcome === "created") return { kind: "created", snapshotId: row.snapshot_id!, contentHash, evaluated: false, firstLook: previous === null };
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Server ${input.serverId}: its latest snapshot kept changing while this listing was stored`);
  }
}
