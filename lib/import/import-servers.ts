import { z } from "zod";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { McpServer } from "@/lib/generated/prisma/client";
import { notifyInTx } from "@/lib/realtime/notify";
import { getSecretKey } from "@/lib/secrets";
import { insertServerStatements, MAX_BATCH_SERVERS, prepareServerCreates, withIds, type PreparedCreate } from "@/lib/servers/create-servers-batch";
import { prepareServerUpdate, type StdioPermission } from "@/lib/servers/prepare-server-write";
import { withNameConflict } from "@/lib/servers/server-name-conflict";
import { stdioPermissionFor } from "@/lib/servers/stdio-policy";
import { invalidateServerPages } from "@/lib/servers/server-page-cache";
import { toServerSummary } from "@/lib/servers/to-server-summary";
import { assertWithinQuota } from "@/lib/tenants/team-quota";
import { invalidInput } from "@/lib/validation";
import { displayTarget } from "./display-target";
import { parseClientConfig, readClientConfig, type ParsedConfig } from "./parse-client-config";
import { planImport, type PlannedAction } from "./plan-import";
import { CONFIG_FORMATS, ImportFormatError, type ConfigFormat, type ImportAction, type ImportItem, type ImportResult, type ServerBody } from "./types";

// POST /api/v1/servers/import: a client config (the text of the file, or the object) planned
// against the team's servers by name (lib/import/plan-import.ts, as `toolwatch import` plans it),
// each server checked as a registration or an edit is (schema, stdio policy, private targets,
// quota), then, unless dryRun, every create and update written in one transaction. Secret values
// go into sealed columns as any header or env value does, and never into the answer.

export const MAX_IMPORT_CONFIG_CHARS = 1_000_000;

export const ImportInput = z
  .strictObject({
    config: z
      .union([z.string().max(MAX_IMPORT_CONFIG_CHARS, `at most ${MAX_IMPORT_CONFIG_CHARS} characters`), z.record(z.string(), z.unknown())])
      .describe("The config file: its text (JSON; comments and trailing commas allowed) or the parsed object"),
    format: z.enum(CONFIG_FORMATS).optional().describe("Read the config as this format instead of detecting it"),
    dryRun: z.boolean().describe("true: plan and check only, nothing is written"),
  })
  .meta({ id: "ImportInput" });

const TRANSPORT = { stdio: "stdio", "streamable-http": "streamable_http", sse: "sse" } as const;

export async function importServers(ctx: ServiceContext, raw: unknown, permission: StdioPermission = stdioPermissionFor(ctx)): Promise<ImportResult> {
  requirePermission(ctx, "server:write");
  const parsed = ImportInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { config: source, format: forced, dryRun } = parsed.data;
  const config = readConfig(source, forced);
  if (config.entries.length > MAX_BATCH_SERVERS) throw new AppError("INVALID_INPUT", `config: ${config.entries.length} servers; at most ${MAX_BATCH_SERVERS} per import`, { fields: { config: `at most ${MAX_BATCH_SERVERS} servers` } });

  const key = getSecretKey();
  const names = config.entries.map((e) => e.name);
  const rows = await ctx.db.mcpServer.findMany({ where: { tenantId: ctx.tenantId, name: { in: names } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const existing = rows.map((r) => toServerSummary(key, { ...r, session: null, oauthState: null, _count: { snapshots: 0 } }, null));
  const plan = planImport(config.entries, existing);

  // Each server judged as its own POST or PATCH would be; a refusal names why and spares the rest.
  const creates = plan.flatMap((p, i) => (p.kind === "create" ? [{ i, body: p.body }] : []));
  const checked = await prepareServerCreates(ctx, creates.map((c) => c.body), permission);
  for (const e of checked.errors) plan[creates[e.index]!.i] = { kind: "refused", name: plan[creates[e.index]!.i]!.name, why: e.message };
  const updates: { i: number; row: McpServer; data: Awaited<ReturnType<typeof prepareServerUpdate>> }[] = [];
  for (const [i, p] of plan.entries()) {
    if (p.kind !== "update") continue;
    try {
      updates.push({ i, row: byId.get(p.id)!, data: await prepareServerUpdate(ctx, byId.get(p.id)!, p.patch, permission, key) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      plan[i] = { kind: "refused", name: p.name, why: error.message };
    }
  }
  const prepared: PreparedCreate[] = checked.prepared;
  const change = { adding: prepared.length, pollIntervals: [...prepared.map((p) => p.requestedPoll), ...updates.map((u) => u.data.patch.pollIntervalSeconds)] };

  const ids = new Map<number, string>(plan.flatMap((p, i) => (p.kind === "update" || p.kind === "unchanged" ? [[i, p.id] as const] : [])));
  if (dryRun) {
    await assertWithinQuota(ctx, ctx.db, change);
  } else if (prepared.length || updates.length) {
    await withNameConflict("(one of the import)", () =>
      ctx.db.$transaction(
        async (tx) => {
          const quota = await assertWithinQuota(ctx, tx, change);
          const created = withIds(prepared, quota.minPollSeconds);
          if (created.length) {
            for (const statement of insertServerStatements(ctx, tx, created, { import: config.format })) await statement;
            await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: created[0]!.id });
          }
          for (const c of created) ids.set(creates[c.index]!.i, c.id);
          for (const u of updates) {
            await tx.mcpServer.update({ where: { id: u.row.id, tenantId: ctx.tenantId }, data: u.data.data });
            await recordAudit(tx, ctx, "server.updated", { type: "server", id: u.row.id }, { ...u.data.auditDetails, import: config.format });
            await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: u.row.id });
          }
        },
        { timeout: 30_000 },
      ),
    );
    invalidateServerPages(ctx.tenantId);
  }

  const items = plan.map((p, i) => toItem(p, config.entries[i]!, ids.get(i), byId));
  const summary: Record<ImportAction, number> = { create: 0, update: 0, unchanged: 0, refused: 0 };
  for (const item of items) summary[item.action]++;
  return { format: config.format, dryRun, items, summary };
}

function readConfig(source: string | Record<string, unknown>, format: ConfigFormat | undefined): ParsedConfig {
  try {
    return typeof source === "string" ? parseClientConfig(source, format) : readClientConfig(source, format);
  } catch (error) {
    if (!(error instanceof ImportFormatError)) throw error;
    throw new AppError("INVALID_INPUT", `config: ${error.message}`, { fields: { config: error.message } });
  }
}

function toItem(p: PlannedAction, entry: ParsedConfig["entries"][number], id: string | undefined, byId: Map<string, McpServer>): ImportItem {
  const body: ServerBody | undefined = "body" in entry ? entry.body : undefined;
  const current = "id" in p ? byId.get(p.id) : undefined;
  return {
    name: p.name,
    action: p.kind,
    ...(p.kind === "refused" ? { reason: p.why } : {}),
    transport: body ? TRANSPORT[body.transport] : (current?.transport ?? null),
    target: body ? displayTarget(body) : null,
    ...(p.kind === "update" ? { changes: p.changed } : {}),
    notes: "notes" in p ? p.notes : [],
    ...(id ? { id } : {}),
  };
}
