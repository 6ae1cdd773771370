import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runDiffCommand } from "@/cli/diff-command";
import { diffSurface } from "@/lib/diff";
import { asScannerTool } from "@/lib/surface/as-scanner-tool";
import { combineContentHash, hashSurface, hashSurfaceItem, surfaceItems } from "@/lib/surface/surface";
import { parseItemKey } from "@/lib/surface/surface-keys";
import { hashTool } from "@/lib/hash/canonical-hash";

const prompt = (args: object[], description = "Summarize a document.") => ({ kind: "prompt", name: "summarize", definition: { name: "summarize", description, arguments: args } });
const resource = (over: object = {}) => ({ kind: "resource", name: "readme", definition: { name: "readme", uri: "file:///README.md", mimeType: "text/markdown", ...over } });
const levels = (before: object[], after: object[]) =>
  diffSurface(before as never, after as never).flatMap((c) => c.findings.map((f) => `${f.level} ${f.ruleId}`));

describe("diffSurface()", () => {
  it("marks a new required prompt argument as ERR and a new optional one as INFO", () => {
    expect(levels([prompt([{ name: "doc", required: true }])], [prompt([{ name: "doc", required: true }, { name: "style", required: true }])])).toEqual(["ERR prompt-required-argument-added"]);
    expect(levels([prompt([])], [prompt([{ name: "style" }])])).toEqual(["INFO prompt-optional-argument-added"]);
    expect(levels([prompt([{ name: "doc" }])], [prompt([{ name: "doc", required: true }])])).toEqual(["ERR prompt-argument-became-required"]);
  });

  it("marks a prompt's description edit INFO, its removal ERR and its arrival INFO", () => {
    expect(levels([prompt([])], [prompt([], "Summarize any document.")])).toEqual(["INFO prompt-description-changed"]);
    expect(levels([prompt([])], [])).toEqual(["ERR prompt-removed"]);
    expect(levels([], [prompt([])])).toEqual(["INFO prompt-added"]);
  });

  it("carries the whole definition of an added or removed item (the diff page shows it), none for a changed one", () => {
    const [added] = diffSurface([], [resource()] as never);
    expect(added).toMatchObject({ change: "added", definition: { name: "readme", uri: "file:///README.md", mimeType: "text/markdown" } });
    const [removed] = diffSurface([prompt([{ name: "doc", required: true }])] as never, []);
    expect(removed).toMatchObject({ change: "removed", definition: { name: "summarize", description: "Summarize a document.", arguments: [{ name: "doc", required: true }] } });
    const [changed] = diffSurface([resource()] as never, [resource({ mimeType: "text/plain" })] as never);
    expect(changed!.change).toBe("changed");
    expect(changed!.definition).toBeUndefined();
  });

  it("marks a resource's URI or MIME type change WARN", () => {
    expect(levels([resource()], [resource({ mimeType: "text/plain" })])).toEqual(["WARN resource-mime-type-changed"]);
    expect(levels([resource()], [resource({ uri: "file:///docs/README.md" })])).toEqual(["WARN resource-uri-changed"]);
  });

  it("marks a removed prompt argument WARN and a template's moved uriTemplate or MIME type WARN", () => {
    expect(levels([prompt([{ name: "doc" }, { name: "style" }])], [prompt([{ name: "doc" }])])).toEqual(["WARN prompt-argument-removed"]);
    const template = (over: object = {}) => ({ kind: "resource_template", name: "logs", definition: { name: "logs", uriTemplate: "logs://{day}", ...over } });
    expect(levels([template()], [template({ uriTemplate: "logs://{year}/{day}" })])).toEqual(["WARN template-uri-changed"]);
    expect(levels([template()], [template({ mimeType: "application/json" })])).toEqual(["WARN template-mime-type-changed"]);
  });

  it("marks changed instructions WARN with a word diff of the text", () => {
    const [change] = diffSurface(
      [{ kind: "instructions", name: "instructions", definition: { name: "instructions", text: "Use summarize for long documents." } }],
      [{ kind: "instructions", name: "instructions", definition: { name: "instructions", text: "Use summarize for every document." } }],
    );
    expect(change).toMatchObject({ kind: "instructions", change: "changed", highest: "WARN" });
    expect(change!.words?.filter((w) => w.op !== "equal")).toEqual([
      { op: "delete", text: "long documents" },
      { op: "insert", text: "every document" },
    ]);
  });
});

describe("surface content addressing", () => {
  it("a tools-only listing keeps the tool list's own hash; the kind is part of an item's address", () => {
    expect(combineContentHash("jcs-sha256:abc", hashSurface(surfaceItems({ prompts: null, resources: null, resourceTemplates: null, instructions: null })))).toBe("jcs-sha256:abc");
    const def = { name: "x", inputSchema: { type: "object" } };
    expect(hashSurfaceItem("prompt", def)).not.toBe(hashTool(def));
    expect(hashSurfaceItem("prompt", def)).not.toBe(hashSurfaceItem("resource", def));
  });

  it("the scanner adapter names the item by kind and turns required prompt arguments into required properties", () => {
    expect(asScannerTool("prompt", { name: "summarize", description: "d", arguments: [{ name: "doc", required: true }, { name: "style" }] })).toEqual({
      name: "prompt summarize",
      description: "d",
      inputSchema: { type: "object", properties: { doc: { type: "string" }, style: { type: "string" } }, required: ["doc"] },
    });
    expect(parseItemKey("template logs")).toEqual({ kind: "resource_template", name: "logs" });
    expect(parseItemKey("read_file")).toBeNull();
  });
});

describe("toolwatch diff with prompts and resources", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-surface-diff-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const file = (name: string, body: object) => {
    const p = path.join(scratch, name);
    fs.writeFileSync(p, JSON.stringify(body));
    return p;
  };
  const tools = [{ name: "echo", inputSchema: { type: "object" } }];

  it("reads {tools, prompts, resources, resourceTemplates, instructions} and fails on a new required prompt argument", async () => {
    const old = file("old.json", { tools, prompts: [prompt([]).definition], resources: [resource().definition], resourceTemplates: [], instructions: "Be brief." });
    const neu = file("new.json", { tools, prompts: [prompt([{ name: "style", required: true }]).definition], resources: [resource({ mimeType: "text/plain" }).definition], resourceTemplates: [], instructions: "Be brief." });
    let stdout = "";
    let stderr = "";
    const code = await runDiffCommand([old, neu, "--fail-on", "ERR"], { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
    expect(stderr).toBe("toolwatch diff: failing: findings at ERR or above (--fail-on ERR)\n");
    expect(code).toBe(1);
    expect(stdout).toContain('ERR prompt "summarize" changed');
    expect(stdout).toContain("ERR prompt-required-argument-added");
    expect(stdout).toContain('WARN resource "readme" changed');
    let json = "";
    await runDiffCommand([old, neu, "--json"], { stdout: { write: (s: string) => (json += s) }, stderr: { write: () => undefined } });
    expect((JSON.parse(json) as { surface: { summary: { changed: number; highest: string } } }).surface.summary).toMatchObject({ changed: 2, highest: "ERR" });
  });
});
