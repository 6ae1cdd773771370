import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extractToolList, runDiffCommand } from "@/cli/diff-command";
import type { ToolListDiff } from "@/lib/diff";

const fixture = (name: string) => path.join(import.meta.dirname, "../fixtures/diff", name);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-diff-cli-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runDiffCommand(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe("toolwatch diff", () => {
  it("a description-only change exits 0 with --fail-on ERR, and shows the word diff", async () => {
    const r = await run(fixture("v1-tools-list.json"), fixture("v2-description-only.json"), "--fail-on", "ERR");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("1 changed, 0 added, 0 removed, 2 unchanged — highest INFO");
    expect(r.stdout).toContain("INFO tool-description-changed  /description");
    expect(r.stdout).toContain("Read the [-complete-]{+full+} contents of [-a-]{+one+} file");
  });

  it("a new required input property is exactly one ERR naming its pointer, and exits 1 with --fail-on ERR", async () => {
    const r = await run(fixture("v1-tools-list.json"), fixture("v2-required-added.json"), "--fail-on", "ERR", "--json");
    expect(r.code).toBe(1);
    const diff = JSON.parse(r.stdout) as ToolListDiff;
    const errs = diff.changed.flatMap((c) => c.findings).filter((f) => f.level === "ERR");
    expect(errs).toEqual([expect.objectContaining({ ruleId: "new-required-request-property", pointer: "/inputSchema/properties/encoding" })]);
    expect(diff.summary).toMatchObject({ changed: 1, highest: "ERR", levels: { ERR: 1 } });
  });

  it("the same change exits 0 without --fail-on, and prints the finding in text form", async () => {
    const r = await run(fixture("v1-tools-list.json"), fixture("v2-required-added.json"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ERR {2}new-required-request-property {2}\/inputSchema\/properties\/encoding\n\s+new required property "encoding"/);
  });

  it("--fail-on WARN also fails on WARN findings; --fail-on ERR does not", async () => {
    const warnOnly = path.join(scratch, "warn.json");
    const v1 = JSON.parse(fs.readFileSync(fixture("v1-tools-list.json"), "utf8"));
    v1.tools[0].annotations.readOnlyHint = false;
    fs.writeFileSync(warnOnly, JSON.stringify(v1));
    expect((await run(fixture("v1-tools-list.json"), warnOnly, "--fail-on", "WARN")).code).toBe(1);
    expect((await run(fixture("v1-tools-list.json"), warnOnly, "--fail-on", "err")).code).toBe(0);
  });

  it("accepts `toolwatch snapshot --json` output (the added `hash` fields are not a change)", async () => {
    const r = await run(fixture("v1-snapshot.json"), fixture("v1-tools-list.json"), "--json", "--fail-on", "ERR");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ changed: 0, unchanged: 3, highest: null });
    const text = await run(fixture("v1-snapshot.json"), fixture("v2-required-added.json"));
    expect(text.stdout).toContain("(3 tools, toolwatch snapshot)");
  });

  it("recognises each accepted file shape", () => {
    const t = { name: "a", inputSchema: { type: "object" } };
    expect(extractToolList([t]).format).toBe("array of tools");
    expect(extractToolList({ tools: [t] }).format).toBe("tools/list result");
    expect(extractToolList({ jsonrpc: "2.0", id: 1, result: { tools: [t] } }).format).toBe("JSON-RPC tools/list response");
    expect(extractToolList({ contentHash: "jcs-sha256:x", tools: [{ hash: "jcs-sha256:y", ...t }] }).tools).toEqual([t]);
    expect(extractToolList({ tools: [t], nextCursor: "p2" }).warnings[0]).toMatch(/one page of a paginated list/);
  });

  it("warns when a side is a single page of a paginated list", async () => {
    const page = path.join(scratch, "page.json");
    fs.writeFileSync(page, JSON.stringify({ ...JSON.parse(fs.readFileSync(fixture("v1-tools-list.json"), "utf8")), nextCursor: "page-2" }));
    const r = await run(fixture("v1-tools-list.json"), page);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: new file .*page\.json: nextCursor is set/);
  });

  it.each([
    [["only-one.json"], /expected two files \(old and new\), got 1/],
    [["a.json", "b.json", "--fail-on", "INFO"], /--fail-on takes ERR or WARN/],
    [["a.json", "b.json", "--bogus"], /Unknown option '--bogus'/],
  ])("bad usage %j exits 2 with a message", async (argv, message) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it.each([
    ["missing.json", /old file .*missing\.json: no such file/, "old"],
    ["not-json.json", /new file .*not-json\.json: not valid JSON/, "new"],
    ["wrong-shape.json", /expected a tools\/list result/, "new"],
    ["jsonrpc-error.json", /holds a JSON-RPC error response, not a tool list \("Method not found"\)/, "new"],
  ])("an unusable file (%s) exits 2 with a clear message", async (name, message, side) => {
    const files = side === "old" ? [fixture(name), fixture("v1-tools-list.json")] : [fixture("v1-tools-list.json"), fixture(name)];
    const r = await run(...files);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("rejects a list entry that is not a tool", async () => {
    const bad = path.join(scratch, "bad-tool.json");
    fs.writeFileSync(bad, JSON.stringify({ tools: [{ name: "ok" }, { title: "no name" }] }));
    const r = await run(fixture("v1-tools-list.json"), bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tools\[1\] is not a tool/);
  });

  it("prints untrusted text with control characters escaped", async () => {
    const evil = path.join(scratch, "evil.json");
    const v1 = JSON.parse(fs.readFileSync(fixture("v1-tools-list.json"), "utf8"));
    v1.tools[2].description += "\u001b[2K\u001b[1A All good.\u200b";
    v1.tools.push({ name: "x\u001b]0;pwned\u0007", inputSchema: { type: "object" } });
    fs.writeFileSync(evil, JSON.stringify(v1));
    const r = await run(fixture("v1-tools-list.json"), evil);
    expect(r.code).toBe(0);
    expect(Array.from(r.stdout).some((c) => c !== "\n" && (c.codePointAt(0)! < 0x20 || c === "\u007f"))).toBe(false);
    expect(r.stdout).not.toContain("\u200b");
    expect(r.stdout).toContain("{+⟦CONTROL⟧[2K⟦CONTROL⟧[1A All good.⟦ZERO WIDTH SPACE⟧+}");
    expect(r.stdout).toContain("+ x⟦CONTROL⟧]0;pwned⟦CONTROL⟧");
  });

  it("--help prints usage and exits 0", async () => {
    const r = await run("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("usage: toolwatch diff <old> <new>");
  });
});
