import type { ServiceContext } from "@/lib/context";
import type { SurfaceItemDto, ToolDto } from "@/lib/servers/server-dto";
import { versionRowsById } from "./tool-versions-by-id";

/** The tools of a snapshot, in server order, from its array of tool-version ids (tenant-scoped). */
export async function loadSnapshotTools(ctx: ServiceContext, toolVersionIds: readonly string[]): Promise<ToolDto[]> {
  if (toolVersionIds.length === 0) return [];
  const rows = await versionRowsById(ctx.db, ctx.tenantId, toolVersionIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return toolVersionIds.flatMap((id, position) => {
    const row = byId.get(id);
    return row ? [{ position, hash: row.hash, name: row.name, definition: row.definition as Record<string, unknown>, contextTokens: row.contextTokens }] : [];
  });
}

/** The prompts, resources, templates and instructions of a snapshot, in server order (tenant-scoped). */
export async function loadSnapshotSurface(ctx: ServiceContext, surfaceVersionIds: readonly string[]): Promise<SurfaceItemDto[]> {
  if (surfaceVersionIds.length === 0) return [];
  const rows = await versionRowsById(ctx.db, ctx.tenantId, surfaceVersionIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return surfaceVersionIds.flatMap((id, position) => {
    const row = byId.get(id);
    return row ? [{ kind: row.kind as SurfaceItemDto["kind"], position, hash: row.hash, name: row.name, definition: row.definition as Record<string, unknown>, contextTokens: row.contextTokens }] : [];
  });
}
