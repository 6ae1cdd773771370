/**
 * Proves the MCP servers Toolwatch is tested and demoed against behave as
 * advertised when driven by the real v2 client: connect + list in both eras,
 * pagination, cursor errors, and list_changed delivery (stdio, modern listen
 * streams, legacy GET streams).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport, type Tool, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { startDemoFleet, type DemoFleet, type DemoServerLaunch } from "@/worker/demo-fleet/demo-fleet";
import { startHttpFixture, stdioFixtureCommand, writeFixtureState, type FixtureTool, type HttpFixture } from "@/tests/fixtures/spawn-fixture";

type Mode = "auto" | "legacy";

/** Every list_changed refresh the client delivered, so tests can wait for a specific one. */
class ChangeLog {
  private seen: Tool[][] = [];
  private waiters: Array<() => void> = [];
  push(tools: Tool[]): void {
    this.seen.push(tools);
    this.waiters.splice(0).forEach((wake) => wake());
  }
  async waitFor(predicate: (tools: Tool[]) => boolean, timeoutMs: number): Promise<Tool[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.seen.find(predicate);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching list_changed within ${timeoutMs} ms (saw ${this.seen.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }
}

const openClients: Client[] = [];
afterEach(async () => {
  // Closing a stdio client also terminates the server child it spawned.
  await Promise.allSettled(openClients.splice(0).map((c) => c.close()));
});

async function connect(transport: Transport, mode: Mode = "auto"): Promise<{ client: Client; changes: ChangeLog }> {
  const changes = new ChangeLog();
  const client = new Client(
    { name: "toolwatch-fixture-test", version: "0.0.0" },
    {
      versionNegotiation: { mode },
      listChanged: { tools: { debounceMs: 50, onChanged: (err, tools) => !err && tools && changes.push(tools) } },
    },
  );
  openClients.push(client);
  await client.connect(transport, { timeout: 20_000 });
  return { client, changes };
}

const stdioTransport = (launch: { command?: string; args?: string[]; env?: Record<string, string> }): Transport =>
  new StdioClientTransport({ command: launch.command!, args: launch.args ?? [], env: launch.env ?? {}, stderr: "pipe" });
const httpTransport = (url: string): Transport => new StreamableHTTPClientTransport(new URL(url));
const names = (tools: Tool[]) => tools.map((t) => t.name);
const listNames = async (client: Client) => names((await client.listTools(undefined, { cacheMode: "refresh" })).tools);

const fixtureTool = (name: string, description = `Fixture tool ${name}`): FixtureTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  annotations: { readOnlyHint: true },
});

describe("state-server fixture", () => {
  let dir: string;
  let http: HttpFixture | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "toolwatch-fixture-"));
  });
  afterAll(async () => {
    await http?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: Array<{ transport: "stdio" | "http"; mode: Mode; era: string; version: string }> = [
    { transport: "stdio", mode: "auto", era: "modern", version: "2026-07-28" },
    { transport: "stdio", mode: "legacy", era: "legacy", version: "2025-11-25" },
    { transport: "http", mode: "auto", era: "modern", version: "2026-07-28" },
    { transport: "http", mode: "legacy", era: "legacy", version: "2025-11-25" },
  ];

  it.each(cases)("$transport / $mode: lists the file's tools and follows edits", async ({ transport, mode, era, version }) => {
    const statePath = join(dir, `${transport}-${mode}.json`);
    writeFixtureState(statePath, { tools: [fixtureTool("alpha"), fixtureTool("beta"), fixtureTool("gamma")], pageSize: 2, ttlMs: 5000, cacheScope: "public" });
    if (transport === "http") {
      await http?.stop();
      http = await startHttpFixture(statePath);
    }
    const { client, changes } = await connect(transport === "stdio" ? stdioTransport(stdioFixtureCommand(statePath)) : httpTransport(http!.url), mode);
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);

    const first = await client.listTools(undefined, { cacheMode: "refresh" });
    expect(names(first.tools)).toEqual(["alpha", "beta", "gamma"]); // two pages walked
    expect(first.tools[0]).toMatchObject({ name: "alpha", annotations: { readOnlyHint: true } });
    const hints = first as typeof first & { ttlMs?: number; cacheScope?: string };
    if (era === "modern") expect([hints.ttlMs, hints.cacheScope]).toEqual([5000, "public"]);
    else expect(hints.ttlMs).toBeUndefined();

    writeFixtureState(statePath, { tools: [fixtureTool("alpha", "Changed description"), fixtureTool("gamma"), fixtureTool("delta")], pageSize: 2 });
    const changed = await changes.waitFor((tools) => names(tools).includes("delta"), 5000);
    expect(names(changed)).toEqual(["alpha", "gamma", "delta"]);
    expect(changed[0]!.description).toBe("Changed description");
    expect(await listNames(client)).toEqual(["alpha", "gamma", "delta"]);
  });

  it("http: a cursor from before an edit is rejected with -32602", async () => {
    const statePath = join(dir, "cursor.json");
    writeFixtureState(statePath, { tools: [fixtureTool("a"), fixtureTool("b"), fixtureTool("c")], pageSize: 1 });
    await http?.stop();
    http = await startHttpFixture(statePath);
    const { client, changes } = await connect(httpTransport(http.url));
    const { nextCursor: cursor } = await client.request({ method: "tools/list", params: {} }); // raw page 1
    expect(cursor).toBeTypeOf("string");
    writeFixtureState(statePath, { tools: [fixtureTool("a"), fixtureTool("c")], pageSize: 1 });
    await changes.waitFor((tools) => names(tools).join() === "a,c", 5000);
    await expect(client.listTools({ cursor })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("demo fleet", () => {
  let fleet: DemoFleet;
  const server = (key: string): DemoServerLaunch => fleet.servers.find((s) => s.key === key)!;
  beforeAll(async () => {
    fleet = await startDemoFleet({ changeIntervalMs: 1500, log: () => undefined });
  });
  afterAll(async () => {
    await fleet?.stop();
  });

  it("notes-stdio: five stable tools with schemas and annotations", async () => {
    const { client } = await connect(stdioTransport(server("demo-notes")));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await client.listTools(undefined, { cacheMode: "refresh" });
    expect(names(tools)).toEqual(["search_notes", "get_note", "create_note", "append_to_note", "delete_note"]);
    const create = tools.find((t) => t.name === "create_note")!;
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(["title", "body", "notebook"]));
    expect(tools[0]!.annotations?.readOnlyHint).toBe(true);
    expect(tools[4]!.annotations?.destructiveHint).toBe(true);
  });

  it.each(["auto", "legacy"] as const)("catalog-http (%s): 24 tools across 3 pages; bogus cursor → -32602", async (mode) => {
    const { client } = await connect(httpTransport(server("demo-catalog").url!), mode);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const all = await client.listTools(undefined, { cacheMode: "refresh" });
    expect(all.tools).toHaveLength(24);
    expect(new Set(names(all.tools)).size).toBe(24);

    const sizes: number[] = [];
    let cursor: string | undefined;
    const first = await client.request({ method: "tools/list", params: {} }); // raw page 1 (listTools() would walk all)
    sizes.push(first.tools.length);
    cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await client.listTools({ cursor });
      sizes.push(page.tools.length);
      cursor = page.nextCursor;
    }
    expect(sizes).toEqual([10, 10, 4]);

    const error = await client.listTools({ cursor: "bogus" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it("release-train-stdio: the list changes on the 1.5 s schedule and list_changed arrives", async () => {
    const { client, changes } = await connect(stdioTransport(server("demo-release-train")));
    const initial = JSON.stringify((await client.listTools(undefined, { cacheMode: "refresh" })).tools);
    const changed = await changes.waitFor((tools) => JSON.stringify(tools) !== initial, 5000);
    expect(JSON.stringify(changed)).not.toBe(initial);
    expect(JSON.stringify((await client.listTools(undefined, { cacheMode: "refresh" })).tools)).not.toBe(initial);
  });
});
