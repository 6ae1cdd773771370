import type { ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";
import { privateTargetsPolicy, type PrivateTargetsPolicy } from "@/lib/env";

// Who may aim MCP servers and webhooks at private and loopback addresses (TOOLWATCH_PRIVATE_TARGETS).
// On a self-hosted instance those addresses are the operator's own network: right for an
// administrator's servers next door, an SSRF hole for a stranger who signed up. The right belongs
// to the team, not the caller: a team an instance administrator is a member of (so its API keys
// and other members share it), every team under "all", none under "none". Checked when a URL is
// saved (lib/network/check-target.ts) and again by the worker on the address it actually connects
// to (createTargetFetches), so a membership that ends or a name that re-resolves gains nothing.

/** Of `tenantIds`, the teams that may reach private and loopback addresses under `policy`. */
export async function teamsWithPrivateTargets(db: Db, tenantIds: readonly string[], policy: PrivateTargetsPolicy = privateTargetsPolicy()): Promise<Set<string>> {
  const ids = [...new Set(tenantIds)];
  if (policy === "all") return new Set(ids);
  if (policy === "none" || ids.length === 0) return new Set();
  const rows = await db.member.findMany({ where: { tenantId: { in: ids }, user: { instanceAdmin: true } }, select: { tenantId: true }, distinct: ["tenantId"] });
  return new Set(rows.map((r) => r.tenantId));
}

/** Whether the caller's team may register private and loopback targets (the instance itself always may). */
export async function teamMayUsePrivateTargets(ctx: ServiceContext, policy: PrivateTargetsPolicy = privateTargetsPolicy()): Promise<boolean> {
  if (policy === "none") return false;
  if (policy === "all" || ctx.actor.kind === "system") return true;
  // An administrator acting in a team is a member of it: no query needed.
  if (ctx.actor.kind === "user" && ctx.actor.instanceAdmin) return true;
  return (await teamsWithPrivateTargets(ctx.db, [ctx.tenantId], policy)).has(ctx.tenantId);
}
