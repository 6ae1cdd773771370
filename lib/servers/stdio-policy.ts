import type { ServiceContext } from "@/lib/context";
import { loadEnv } from "@/lib/env";
import type { StdioPermission } from "./prepare-server-write";

/**
 * Whether this actor may register or change how a stdio server is run — that runs a command on
 * the worker host. TOOLWATCH_STDIO_POLICY: "all" (any admin of a team), "admins" (instance
 * administrators only; the default), "off" (nobody through the API).
 */
export function stdioPermissionFor(ctx: ServiceContext): StdioPermission {
  const policy = loadEnv().TOOLWATCH_STDIO_POLICY;
  if (ctx.actor.kind === "system") return { allowStdio: true };
  if (policy === "all") return { allowStdio: true };
  if (policy === "admins") return { allowStdio: ctx.actor.kind === "user" && ctx.actor.instanceAdmin };
  return { allowStdio: false };
}
