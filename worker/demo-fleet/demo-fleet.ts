/**
 * The demo fleet: three small MCP servers a first-time Toolwatch user can watch
 * without configuring anything (the worker starts it unless TOOLWATCH_DEMO=0).
 *
 * - notes-stdio          stable stdio server (5 tools, never changes)
 * - catalog-http         Streamable HTTP, 24 tools in pages of 10
 * - release-train-stdio  stdio, tool list drifts every DEMO_CHANGE_INTERVAL_MS
 *
 * stdio servers are not spawned here: the worker's MCP client spawns them from
 * the returned command/args/env. Only the HTTP server is a long-lived child of
 * this process, supervised and restarted on the same port so its URL stays valid.
 */
import path from "node:path";
import { PROJECT_ROOT } from "../../lib/project-root";
import { spawnUntilReady, tsxArgs, type ReadyChild } from "./spawn-ready";

export type DemoTransport = "stdio" | "streamable_http";

export interface DemoServerInfo {
  key: string;
  name: string;
  transport: DemoTransport;
  description: string;
  tags: string[];
}

export interface DemoServerLaunch {
  key: string;
  name: string;
  transport: DemoTransport;
  /** stdio only: spawn `command args` with `env` (on top of the client's default env). */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** streamable_http only. */
  url?: string;
  tags: string[];
}

export interface DemoFleet {
  servers: DemoServerLaunch[];
  stop(): Promise<void>;
}

export interface StartDemoFleetOptions {
  /** Tool-list change period of release-train-stdio (default 60000 ms). */
  changeIntervalMs?: number;
  log?: (line: string) => void;
}

export const DEMO_SERVERS: DemoServerInfo[] = [
  {
    key: "demo-notes",
    name: "Team Notes (demo)",
    transport: "stdio",
    description: "A stable stdio server with five note-taking tools. Its snapshot should never change.",
    tags: ["demo", "stdio", "stable"],
  },
  {
    key: "demo-catalog",
    name: "Acme Product Catalog (demo)",
    transport: "streamable_http",
    description: "Streamable HTTP server with 24 catalog tools served in pages of 10, to show paginated listing.",
    tags: ["demo", "http", "paginated"],
  },
  {
    key: "demo-release-train",
    name: "Release Train (demo)",
    transport: "stdio",
    description:
      "A deployments server whose tools change on a schedule: a description grows, a tool appears, a required parameter is added, then it all reverts.",
    tags: ["demo", "stdio", "changing"],
  },
];

/** Whether the worker should start the demo fleet. */

const script = (file: string): string => path.join(PROJECT_ROOT, "worker", "demo-fleet", "servers", file);
const info = (key: string): DemoServerInfo => DEMO_SERVERS.find((s) => s.key === key)!;

const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A child that stayed up this long is considered healthy again: backoff resets. */
const HEALTHY_AFTER_MS = 60_000;

/**
 * Keeps catalog-http running. The first start picks a free port; restarts reuse
 * it (the URL is already stored as the server's address in Toolwatch).
 */
async function superviseCatalog(log: (line: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  const label = "catalog-http";
  const start = (port: number): Promise<ReadyChild> =>
    spawnUntilReady({
      scriptPath: script("catalog-http.ts"),
      env: { ...process.env, PORT: String(port) },
      label,
      onStderrLine: (line) => log(`[demo] ${line}`),
    });

  let current = await start(0);
  const url = current.url;
  const port = Number(new URL(url).port);
  let stopping = false;
  let delay = RESTART_MIN_MS;
  let restartTimer: NodeJS.Timeout | undefined;
  let startedAt = Date.now();

  const watch = (ready: ReadyChild) => {
    ready.child.once("exit", (code, signal) => {
      if (stopping) return;
      if (Date.now() - startedAt >= HEALTHY_AFTER_MS) delay = RESTART_MIN_MS;
      log(`[demo] ${label} exited (code ${code}, signal ${signal}); restarting in ${delay} ms`);
      scheduleRestart();
    });
  };
  const scheduleRestart = () => {
    const wait = delay;
    delay = Math.min(delay * 2, RESTART_MAX_MS);
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      start(port).then(
        (ready) => {
          if (stopping) return void ready.stop();
          current = ready;
          startedAt = Date.now();
          log(`[demo] ${label} restarted at ${ready.url}`);
          watch(ready);
        },
        (error: unknown) => {
          if (stopping) return;
          log(`[demo] ${label} restart failed: ${error instanceof Error ? error.message : String(error)}`);
          scheduleRestart();
        },
      );
    }, wait);
  };
  watch(current);

  return {
    url,
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      await current.stop(3000);
    },
  };
}

export async function startDemoFleet(opts: StartDemoFleetOptions = {}): Promise<DemoFleet> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const changeIntervalMs = Math.max(100, Math.floor(opts.changeIntervalMs ?? 60_000));

  const catalog = await superviseCatalog(log);
  const stdio = (key: string, file: string, env: Record<string, string>): DemoServerLaunch => {
    const { name, transport, tags } = info(key);
    // env holds only what the server needs: the v2 StdioClientTransport adds
    // HOME/LOGNAME/PATH/SHELL/TERM/USER itself, which is all tsx requires.
    return { key, name, transport, command: process.execPath, args: tsxArgs(script(file)), env, tags };
  };
  const { name, transport, tags } = info("demo-catalog");

  return {
    servers: [
      stdio("demo-notes", "notes-stdio.ts", {}),
      { key: "demo-catalog", name, transport, url: catalog.url, tags },
      stdio("demo-release-train", "release-train-stdio.ts", { DEMO_CHANGE_INTERVAL_MS: String(changeIntervalMs) }),
    ],
    stop: () => catalog.stop(),
  };
}
