import "@/tests/helpers/test-env";
import { describe, expect, it } from "vitest";
import { diffSnapshots } from "@/lib/history/diff-snapshots";
import { listSnapshots } from "@/lib/servers/list-snapshots";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { insertServerRow, createTenantContext } from "@/tests/helpers/factories";

// GET /servers/{id}/diff carries the per-kind changes of prompts, resources, templates and
// instructions beside the tool diff: what the server page's tabs and the diff page's kinds show.

const tool = { name: "echo", description: "Echo the input.", inputSchema: { type: "object" } };
const surfaceV1 = {
  prompts: [{ name: "summarize", description: "Summarize a document.", arguments: [{ name: "doc", required: true }] }],
  resources: [{ name: "readme", uri: "file:///README.md", mimeType: "text/markdown" }],
  resourceTemplates: [{ name: "logs", uriTemplate: "logs://{day}" }],
  instructions: "Use summarize for long documents.",
};
const surfaceV2 = {
  prompts: [{ name: "summarize", description: "Summarize a document.", arguments: [{ name: "doc", required: true }, { name: "style", required: true }] }],
  resources: [{ name: "readme", uri: "file:///docs/README.md", mimeType: "text/markdown" }],
  resourceTemplates: [{ name: "logs", uriTemplate: "logs://{day}" }],
  instructions: "Use summarize for every document.",
};

async function serverWith(label: string) {
  const ctx = await createTenantContext(label);
  const server = await insertServerRow(ctx, label, { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }, { enabled: false });
  return { ctx, serverId: server.id };
}

describe("diffSnapshots() with prompts, resources, templates and instructions", () => {
  it("names each changed item by kind with its level: a new required argument ERR, a moved URI WARN, instructions WARN with words", async () => {
    const { ctx, serverId } = await serverWith("surface-diff");
    await recordSnapshot(ctx, { serverId, tools: [tool], surface: surfaceV1, trigger: "connect" });
    await recordSnapshot(ctx, { serverId, tools: [tool], surface: surfaceV2, trigger: "poll" });
    const result = await diffSnapshots(ctx, serverId, {});
    expect(result.diff.summary).toMatchObject({ added: 0, removed: 0, changed: 0 });
    expect(result.surface.tracked).toBe(true);
    const brief = result.surface.changes.map((c) => [c.kind, c.name, c.change, c.highest, c.findings.map((f) => f.ruleId)]);
    expect(brief).toEqual([
      ["prompt", "summarize", "changed", "ERR", ["prompt-required-argument-added"]],
      ["resource", "readme", "changed", "WARN", ["resource-uri-changed"]],
      ["instructions", "instructions", "changed", "WARN", ["instructions-changed"]],
    ]);
    const instructions = result.surface.changes.find((c) => c.kind === "instructions")!;
    expect(instructions.words?.filter((w) => w.op !== "equal").map((w) => `${w.op}:${w.text}`)).toEqual(["delete:long documents", "insert:every document"]); // both words differ: one run each side
    // The snapshot list carries per-kind counts for the tabs' histories.
    const page = await listSnapshots(ctx, serverId, {});
    expect(page.items[0]!.changes?.surfaceCounts).toEqual({ prompt: { added: 0, removed: 0, changed: 1 }, resource: { added: 0, removed: 0, changed: 1 }, instructions: { added: 0, removed: 0, changed: 1 } });
  });

  it("compares nothing against a snapshot taken before these lists were read, and reports every item added for the first snapshot", async () => {
    const { ctx, serverId } = await serverWith("surface-untracked");
    const first = await recordSnapshot(ctx, { serverId, tools: [tool], trigger: "connect" });
    await recordSnapshot(ctx, { serverId, tools: [tool], surface: surfaceV1, trigger: "poll" });
    const latest = await diffSnapshots(ctx, serverId, {});
    expect(latest.surface).toEqual({ tracked: false, changes: [] });
    const only = await diffSnapshots(ctx, serverId, { to: latest.to.id, from: first.snapshotId });
    expect(only.surface.tracked).toBe(false);

    const fresh = await serverWith("surface-first");
    await recordSnapshot(fresh.ctx, { serverId: fresh.serverId, tools: [tool], surface: surfaceV1, trigger: "connect" });
    const initial = await diffSnapshots(fresh.ctx, fresh.serverId, {});
    expect(initial.from).toBeNull();
    expect(initial.surface.changes.map((c) => `${c.change} ${c.kind} ${c.name}`).sort()).toEqual(["added instructions instructions", "added prompt summarize", "added resource readme", "added resource_template logs"]);
  });
});
