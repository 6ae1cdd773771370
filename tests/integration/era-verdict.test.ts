import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeSnapshot } from "@/lib/discovery/take-snapshot";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";
import { stdioFixtureCommand, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { testFetch } from "@/tests/helpers/guarded";

const opts = { connectTimeoutMs: 15_000, requestTimeoutMs: 15_000, maxPages: 10, fetch: testFetch() };

describe("era verdict reuse (`prior`)", () => {
  let dir: string;
  let config: ServerConnectionConfig;
  const spawns = () => fs.readFileSync(path.join(dir, "spawns.log"), "utf8").trim().split("\n").filter(Boolean).length;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-era-"));
    fs.writeFileSync(path.join(dir, "spawns.log"), "");
    writeFixtureState(path.join(dir, "state.json"), { tools: [{ name: "t", inputSchema: { type: "object" } }] });
    const cmd = stdioFixtureCommand(path.join(dir, "state.json"));
    config = { transport: "stdio", command: cmd.command, args: cmd.args, env: { ...cmd.env, FIXTURE_SPAWN_LOG: path.join(dir, "spawns.log") } };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the first connect probes (a sibling process) and yields a verdict; reusing it needs no probe", async () => {
    const first = await takeSnapshot(config, opts);
    expect(first.facts.era).toBe("modern");
    expect(first.facts.verdict.kind).toBe("modern");
    expect(spawns()).toBe(2); // probe sibling + session process

    const again = await takeSnapshot(config, { ...opts, prior: first.facts.verdict });
    expect(again.facts.era).toBe("modern");
    // Adopting a verdict must not cost the push channel (the SDK skips its auto-listen then).
    expect(again.facts.pushChannel).toBe(true);
    expect(again.contentHash).toBe(first.contentHash);
    expect(spawns()).toBe(3); // just the session process
  });

  it("a session reconnecting with a stored verdict still hears list_changed", async () => {
    const { DiscoverySession } = await import("@/lib/discovery/discovery-session");
    const probe = await takeSnapshot(config, opts);
    const listings: number[] = [];
    const session = new DiscoverySession(config, { ...opts, debounceMs: 50, pollIntervalMs: 600_000, backoffMaxMs: 1_000, verdict: probe.facts.verdict }, {
      log: () => undefined,
      state: async () => undefined,
      listing: async (l) => void listings.push(l.tools.length),
    });
    session.start();
    try {
      const { waitFor } = await import("@/tests/helpers/factories");
      await waitFor("first listing", async () => listings, (l) => l.length === 1, 15_000);
      writeFixtureState(path.join(dir, "state.json"), { tools: [{ name: "t", inputSchema: { type: "object" } }, { name: "u", inputSchema: { type: "object" } }] });
      await waitFor("pushed change", async () => listings, (l) => l.at(-1) === 2, 15_000);
    } finally {
      await session.stop();
      writeFixtureState(path.join(dir, "state.json"), { tools: [{ name: "t", inputSchema: { type: "object" } }] });
    }
  });

  it("a verdict that no longer holds is dropped and the server is probed again", async () => {
    // Pretend we had judged this modern-capable server legacy-only with a bogus modern prior shape.
    const stale = { kind: "modern" as const, discover: { supportedVersions: ["1999-01-01"], capabilities: {} } };
    const snap = await takeSnapshot(config, { ...opts, prior: stale });
    expect(snap.facts.era).toBe("modern");
    expect(snap.facts.verdict).toMatchObject({ kind: "modern" });
    expect((snap.facts.verdict as unknown as { discover: { supportedVersions: string[] } }).discover.supportedVersions).toContain("2026-07-28");
  });

  it("--era legacy forces initialize even on a modern-capable server", async () => {
    const snap = await takeSnapshot(config, { ...opts, era: "legacy" });
    expect(snap.facts).toMatchObject({ era: "legacy", verdict: { kind: "legacy" } });
  });
});
