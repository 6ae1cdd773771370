import { afterAll, describe, expect, it } from "vitest";
import { describeError } from "@/lib/discovery/discovery-error";
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { takeSnapshot } from "@/lib/discovery/take-snapshot";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";
import { misbehavingCommand, startMisbehavingHttp, type Misbehaviour } from "@/tests/fixtures/spawn-fixture";

// Every misbehaviour from the issue, over stdio and Streamable HTTP, through the worker's own
// engine. Each must end as a precise code (or a snapshot with precise warnings), never a hang.
const guarded = createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024 });
afterAll(() => guarded.close());

type Expect = { error: string; message?: RegExp } | { tools: number; warnings?: RegExp[]; restarts?: number };

const CASES: Array<[Misbehaviour, { stdio: Expect; http: Expect; timeoutMs?: number }]> = [
  // Only the servers that never answer get short timeouts; everyone else gets room for a loaded machine.
  ["hang-connect", { stdio: { error: "CONNECT_TIMEOUT" }, http: { error: "CONNECT_TIMEOUT" }, timeoutMs: 2_000 }],
  ["hang-list", { stdio: { error: "LIST_TIMEOUT", message: /page 1/ }, http: { error: "LIST_TIMEOUT" }, timeoutMs: 2_000 }],
  ["garbage", { stdio: { error: "INVALID_OUTPUT", message: /not JSON-RPC|<html>/ }, http: { error: "INVALID_JSON" }, timeoutMs: 3_000 }],
  ["cursor-cycle", { stdio: { error: "CURSOR_CYCLE" }, http: { error: "CURSOR_CYCLE" } }],
  ["repeated-page", { stdio: { error: "REPEATED_PAGE" }, http: { error: "REPEATED_PAGE" } }],
  ["endless-cursors", { stdio: { error: "PAGE_LIMIT" }, http: { error: "PAGE_LIMIT" } }],
  ["oversized", { stdio: { error: "RESPONSE_TOO_LARGE" }, http: { error: "RESPONSE_TOO_LARGE" }, timeoutMs: 20_000 }],
  ["crash-after-connect", { stdio: { error: "CONNECTION_CLOSED", message: /simulated crash/ }, http: { error: "CONNECTION_CLOSED" } }],
  ["duplicate-names", { stdio: { tools: 4, warnings: [/DUPLICATE_NAMES: search/] }, http: { tools: 4, warnings: [/DUPLICATE_NAMES: search/] } }],
  [
    "invalid-schema",
    {
      stdio: { tools: 2, warnings: [/dropped item 1 of page 1: .*inputSchema is not an object/, /dropped item 3 .*not "object"/, /dropped item 4 .*not an object/] },
      http: { tools: 2, warnings: [/dropped item 1 of page 1/] },
    },
  ],
  ["invalid-cursor-once", { stdio: { tools: 3, restarts: 1 }, http: { tools: 3, restarts: 1 } }],
  ["nonconforming-modern", { stdio: { tools: 3, warnings: [/NON_CONFORMING: .*lacks resultType, ttlMs, cacheScope/] }, http: { tools: 3, warnings: [/NON_CONFORMING/] } }],
  ["normal", { stdio: { tools: 3 }, http: { tools: 3 } }],
];

describe.each(CASES)("a server that misbehaves: %s", (mode, expected) => {
  it.each(["stdio", "http"] as const)("over %s", async (transport) => {
    const timeoutMs = expected.timeoutMs ?? 15_000;
    const http = transport === "http" ? await startMisbehavingHttp(mode) : undefined;
    try {
      const config: ServerConnectionConfig = http
        ? { transport: "streamable_http", url: http.url, headers: {} }
        : { transport: "stdio", ...misbehavingCommand(mode) };
      const want = expected[transport];
      const outcome = await takeSnapshot(config, { connectTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, maxPages: 50, fetch: guarded }).then(
        (snapshot) => ({ snapshot }),
        (error: unknown) => ({ error: describeError(error) }),
      );
      if ("error" in want) {
        expect(outcome, JSON.stringify(outcome).slice(0, 300)).toHaveProperty("error");
        const { code, message } = (outcome as { error: { code: string; message: string } }).error;
        expect(code).toBe(want.error);
        if (want.message) expect(message).toMatch(want.message);
      } else {
        expect(outcome, JSON.stringify(outcome).slice(0, 300)).toHaveProperty("snapshot");
        const { snapshot } = outcome as { snapshot: Awaited<ReturnType<typeof takeSnapshot>> };
        expect(snapshot.tools).toHaveLength(want.tools);
        for (const w of want.warnings ?? []) expect(snapshot.listing.warnings.some((x) => w.test(x))).toBe(true);
        if (!want.warnings) expect(snapshot.listing.warnings).toEqual([]);
        if (want.restarts !== undefined) expect(snapshot.listing.restarts).toBe(want.restarts);
      }
    } finally {
      await http?.stop();
    }
  });
});
