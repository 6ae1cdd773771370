import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscoverySession, type SessionStateChange } from "@/lib/discovery/discovery-session";
import type { Listing } from "@/lib/discovery/open-connection";
import { takeSnapshot } from "@/lib/discovery/take-snapshot";
import { startV1Fixture, v1StdioCommand, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { waitFor } from "@/tests/helpers/factories";
import { testFetch } from "@/tests/helpers/guarded";

// Fixtures built on the v1 SDK: legacy era, sessions over Streamable HTTP, pagination whose first
// cursor is "" — the shapes most servers in the wild still have.
const tools = (n: number) => ({ tools: Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } })), pageSize: 2 });

describe("legacy servers on the v1 SDK", () => {
  let dir: string;
  let http: Awaited<ReturnType<typeof startV1Fixture>>;
  const state = () => path.join(dir, "state.json");

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-v1-"));
    writeFixtureState(state(), tools(5));
    http = await startV1Fixture(state(), { transport: "http" });
  });
  afterAll(async () => {
    await http?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('walks every page over stdio, treating the first cursor "" as a real cursor', async () => {
    const cmd = v1StdioCommand(state());
    const snap = await takeSnapshot({ transport: "stdio", ...cmd }, { connectTimeoutMs: 15_000, requestTimeoutMs: 15_000, maxPages: 10, fetch: testFetch() });
    expect(snap.facts).toMatchObject({ era: "legacy", protocolVersion: "2025-11-25" });
    expect(snap.tools.map((t) => t.name)).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    expect(snap.listing.pages).toBe(3);
  });

  it("follows list_changed over the session's GET stream and recovers from an expired session (404) with a fresh client", async () => {
    const states: SessionStateChange[] = [];
    const listings: Array<{ trigger: string; listing: Listing }> = [];
    const session = new DiscoverySession(
      { transport: "streamable_http", url: http.url, headers: {} },
      { connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxPages: 10, debounceMs: 100, pollIntervalMs: 60_000, backoffMaxMs: 1_000, fetch: testFetch() },
      { log: () => undefined, state: async (c) => void states.push(c), listing: async (listing, m) => void listings.push({ trigger: m.trigger, listing }) },
    );
    session.start();
    try {
      await waitFor("first listing", async () => listings.length, (n) => n === 1, 15_000);
      expect(states.find((s) => s.status === "live")?.facts?.pushChannel).toBe(true);

      writeFixtureState(state(), tools(6));
      const changed = await waitFor("list_changed listing", async () => listings.at(-1), (l) => l?.listing.tools.length === 6, 10_000);
      expect(changed?.trigger).toBe("list_changed");

      expect(await http.expireSessions()).toBeGreaterThan(0);
      session.refresh("manual"); // the next request carries the dead session id
      await waitFor("reconnected after 404", async () => listings.at(-1)?.trigger, (t) => t === "reconnect", 15_000);
      const degraded = states.find((s) => s.status === "degraded");
      expect(degraded?.error?.code).toMatch(/404/);
      expect(states.at(-1)?.status).toBe("live");
      expect(listings.at(-1)?.listing.tools).toHaveLength(6);
    } finally {
      await session.stop();
    }
  });

  it("serves legacy HTTP+SSE (2024-11-05 transport) when chosen explicitly", async () => {
    const sse = await startV1Fixture(state(), { transport: "sse" });
    try {
      const snap = await takeSnapshot({ transport: "sse", url: sse.url, headers: {} }, { connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxPages: 10, fetch: testFetch() });
      expect(snap.facts.transportUsed).toBe("sse");
      expect(snap.tools).toHaveLength(6);
    } finally {
      await sse.stop();
    }
  });
});

describe("modern (2026-07-28) listen streams", () => {
  it("re-listens when the server ends the stream, takes a fresh snapshot, and still hears later changes", async () => {
    const { startHttpFixture } = await import("@/tests/fixtures/spawn-fixture");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-listen-"));
    const state = path.join(dir, "state.json");
    writeFixtureState(state, { tools: [{ name: "a", inputSchema: { type: "object" } }], listenEpoch: 1 });
    const server = await startHttpFixture(state);
    const listings: string[] = [];
    const logs: string[] = [];
    const session = new DiscoverySession(
      { transport: "streamable_http", url: server.url, headers: {} },
      { connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxPages: 10, debounceMs: 100, pollIntervalMs: 60_000, backoffMaxMs: 1_000, fetch: testFetch() },
      { log: (l) => void logs.push(l), state: async () => undefined, listing: async (l, m) => void listings.push(`${m.trigger}:${l.tools.length}`) },
    );
    session.start();
    try {
      await waitFor("connect listing", async () => listings, (l) => l.includes("connect:1"), 15_000);
      writeFixtureState(state, { tools: [{ name: "a", inputSchema: { type: "object" } }], listenEpoch: 2 });
      await waitFor("re-listen listing", async () => listings, (l) => l.includes("relisten:1"), 15_000);
      expect(logs.some((l) => /re-subscribed/.test(l))).toBe(true);
      expect(session.stats.connects).toBe(1); // the connection itself was kept
      writeFixtureState(state, { tools: [{ name: "a", inputSchema: { type: "object" } }, { name: "b", inputSchema: { type: "object" } }], listenEpoch: 2 });
      await waitFor("change heard on the new stream", async () => listings, (l) => l.includes("list_changed:2"), 15_000);
    } finally {
      await session.stop();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
