/**
 * Spawn a TypeScript server script and wait for its `READY <url>` stdout line.
 * Used by the demo fleet (catalog-http) and by tests/fixtures/spawn-fixture.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/**
 * `--import` value that loads tsx regardless of the child's cwd. A bare "tsx"
 * is resolved from the working directory, which breaks when the worker (or the
 * MCP client spawning a stdio server) runs from elsewhere.
 */
export const TSX_IMPORT: string = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** argv (after the node binary) that runs a .ts script through tsx. */
export const tsxArgs = (scriptPath: string): string[] => ["--import", TSX_IMPORT, scriptPath];

export interface ReadyChild {
  child: ChildProcess;
  url: string;
  /** Last few KiB of the child's stderr, for error messages. */
  stderrTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnReadyOptions {
  scriptPath: string;
  /** argv after the node binary; default `tsxArgs(scriptPath)` (tests pass a prebuilt bundle). */
  args?: string[];
  env: NodeJS.ProcessEnv;
  /** Shown in error messages, e.g. "catalog-http". */
  label: string;
  timeoutMs?: number;
  /** Receives each stderr line (the child's logs). */
  onStderrLine?: (line: string) => void;
}

const TAIL_BYTES = 4096;

export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function forEachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffered = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      onLine(buffered.slice(0, nl).replace(/\r$/, ""));
      buffered = buffered.slice(nl + 1);
    }
  });
}

export function spawnUntilReady(opts: SpawnReadyOptions): Promise<ReadyChild> {
  const { scriptPath, env, label, timeoutMs = 20_000, onStderrLine } = opts;
  const child = spawn(process.execPath, opts.args ?? tsxArgs(scriptPath), { env, stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const stderrTail = () => tail.trim();
  forEachLine(child.stderr!, (line) => {
    tail = (tail + line + "\n").slice(-TAIL_BYTES);
    onStderrLine?.(line);
  });

  return new Promise<ReadyChild>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stopChild(child, 500);
      const t = stderrTail();
      reject(new Error(`${label}: ${why}${t ? `\n--- stderr (tail) ---\n${t}` : " (no stderr output)"}`));
    };
    const timer = setTimeout(() => fail(`no READY line within ${timeoutMs} ms`), timeoutMs);
    child.once("error", (e) => fail(`failed to spawn: ${e.message}`));
    child.once("exit", (code, signal) => fail(`exited before READY (code ${code}, signal ${signal})`));
    forEachLine(child.stdout!, (line) => {
      const match = /^READY (\S+)$/.exec(line);
      if (settled || !match) return;
      settled = true;
      clearTimeout(timer);
      resolve({ child, url: match[1]!, stderrTail, stop: (graceMs) => stopChild(child, graceMs) });
    });
  });
}
