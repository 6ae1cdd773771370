import { execFileSync } from "node:child_process";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

const messagesFor = async (code: string, filePath: string) =>
  (await eslint.lintText(code, { filePath: path.join(ROOT, filePath) }))[0]!.messages.map((m) => m.message);

describe("static checks", () => {
  it("the whole tree passes ESLint (type-aware rules and the architecture's dependency rules)", async () => {
    const results = await eslint.lintFiles(["."]);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
  });

  it("the dependency rules reject lib/ importing Next, app/ importing the worker, and Prisma outside lib/db.ts", async () => {
    expect(await messagesFor('import "next/server";\nexport const x = 1;\n', "lib/ids.ts")).toEqual(
      expect.arrayContaining([expect.stringContaining("lib/ must not depend on Next or React")]),
    );
    expect(await messagesFor('import { Scheduler } from "@/worker/scheduler";\nexport const y = Scheduler;\n', "app/_lib/http.ts")).toEqual(
      expect.arrayContaining([expect.stringContaining("app/ may import lib/, never worker/")]),
    );
    expect(await messagesFor('import { PrismaClient } from "./generated/prisma/client";\nexport const db = new PrismaClient();\n', "lib/ids.ts")).toEqual(
      expect.arrayContaining([expect.stringContaining("Only lib/db.ts constructs PrismaClient")]),
    );
  });

  it("no outbound request in lib/, worker/ or cli/ bypasses the guarded fetch (issue 13)", async () => {
    const unguarded = expect.arrayContaining([expect.stringContaining("Outbound requests go through the guarded fetch")]);
    expect(await messagesFor('export const get = () => fetch("http://127.0.0.1/");\n', "lib/ids.ts")).toEqual(unguarded);
    expect(await messagesFor('export const get = () => globalThis.fetch("http://127.0.0.1/");\n', "lib/webhooks/sign.ts")).toEqual(unguarded);
    expect(await messagesFor('export const get = () => fetch("http://127.0.0.1/");\n', "worker/scheduler.ts")).toEqual(unguarded);
    expect(await messagesFor('import http from "node:http";\nexport const get = () => http.request("http://127.0.0.1/");\n', "worker/scheduler.ts")).toEqual(unguarded);
    expect(await messagesFor('import { request } from "undici";\nexport const get = request;\n', "lib/ids.ts")).toEqual(unguarded);
    // A parameter named fetch (a GuardedFetch handed in) is not the global one.
    expect(await messagesFor("export const get = (fetch: (u: string) => Promise<unknown>) => fetch(\"http://x/\");\n", "lib/ids.ts")).toEqual([]);
  });

  describe("toolwatch/verb-writes-audited: an exported lib verb that writes authorizes and audits (lib/CONVENTIONS.md)", () => {
    const verbMessages = async (code: string) => (await messagesFor(code, "lib/ids.ts")).filter((m) => /Exported lib verb|internal-writer/.test(m));
    const HEAD = 'import type { ServiceContext } from "./context";\nimport { requirePermission } from "./auth/permissions";\nimport { recordAudit } from "./audit-log/record-audit";\n';

    it("fails a verb that deletes with neither requirePermission nor recordAudit", async () => {
      const bad = `${HEAD}export async function dropServer(ctx: ServiceContext, id: string) {\n  await ctx.db.$transaction(async (tx) => {\n    await tx.mcpServer.delete({ where: { id } });\n  });\n}\n`;
      expect(await verbMessages(bad)).toEqual([expect.stringContaining("Exported lib verb `dropServer` writes (mcpServer.delete) but never calls requirePermission and recordAudit")]);
    });

    it("fails a verb that authorizes but does not audit, raw SQL and arrow functions included", async () => {
      const bad = `${HEAD}export const wipe = async (ctx: ServiceContext) => {\n  requirePermission(ctx, "server:write");\n  await ctx.db.$executeRaw\`DELETE FROM mcp_server WHERE tenant_id = \${ctx.tenantId}\`;\n};\n`;
      expect(await verbMessages(bad)).toEqual([expect.stringContaining("`wipe` writes ($executeRaw) but never calls recordAudit")]);
      const update = `${HEAD}export async function rename(ctx: ServiceContext) {\n  requirePermission(ctx, "server:write");\n  await ctx.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { name: "x" } });\n}\n`;
      expect(await verbMessages(update)).toEqual([expect.stringContaining("`rename` writes (mcpServer.updateMany) but never calls recordAudit")]);
    });

    it("passes a verb in the shape, a read-only export, and a writer allow-listed with a reason; an allow without a reason fails", async () => {
      const good = `${HEAD}export async function dropServer(ctx: ServiceContext, id: string) {\n  requirePermission(ctx, "server:write");\n  await ctx.db.$transaction(async (tx) => {\n    await tx.mcpServer.delete({ where: { id } });\n    await recordAudit(tx, ctx, "server.deleted", { type: "server", id });\n  });\n}\n`;
      expect(await verbMessages(good)).toEqual([]);
      const read = `${HEAD}export async function count(ctx: ServiceContext) {\n  const map = new Map<string, number>();\n  map.delete("x");\n  return ctx.db.mcpServer.count();\n}\n`;
      expect(await verbMessages(read)).toEqual([]);
      const allowed = `${HEAD}// internal-writer: the worker's heartbeat\nexport async function beat(ctx: ServiceContext) {\n  await ctx.db.workerHeartbeat.deleteMany({});\n}\n`;
      expect(await verbMessages(allowed)).toEqual([]);
      const noReason = allowed.replace("internal-writer: the worker's heartbeat", "internal-writer");
      expect(await verbMessages(noReason)).toEqual([expect.stringContaining("`internal-writer` needs a reason")]);
    });
  });

  it("strict TypeScript finds no errors in the whole project", () => {
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    let output = "";
    try {
      execFileSync(process.execPath, [tsc, "--noEmit", "-p", ROOT], { cwd: ROOT, encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  });
});
