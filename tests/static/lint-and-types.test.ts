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
    expect(await messagesFor('import { Scheduler } from "../../worker/scheduler";\nexport const y = Scheduler;\n', "app/_lib/http.ts")).toEqual(
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
