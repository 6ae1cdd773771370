import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { WEB_BUNDLE, WORKER_BUNDLE } from "@/scripts/build-if-needed";
import { bundleOf } from "./test-bundles";

const ROOT = path.resolve(import.meta.dirname, "../..");
// As scripts/supervisor.ts: production web and worker processes run the compiled bundles (scripts/build-if-needed.ts).
const BUNDLES: Record<string, string> = { "server.ts": WEB_BUNDLE, "worker/main.ts": WORKER_BUNDLE };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export type Proc = { child: ChildProcess; output: () => string; exited: Promise<number | null>; stop(): Promise<void> };

/** Spawns one of the product's processes (server.ts, worker/main.ts) as `npm start` would. */
export function startProcess(script: string, env: Record<string, string>, readyPattern: RegExp, timeoutMs = 60_000): Promise<Proc> {
  // Outside production mode, the worker runs from this test run's bundle (tests/helpers/test-bundles.ts).
  const bundle = env.NODE_ENV === "production" ? BUNDLES[script] : bundleOf(path.join(ROOT, script));
  const args = bundle && fs.existsSync(bundle) ? [bundle] : ["--import", "tsx", script];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  // A test file that fails before its afterAll stops the product must not leave it running (an
  // orphaned web process spun at 40 % of a core for an hour, skewing every benchmark after it).
  const reap = () => child.kill("SIGKILL");
  process.once("exit", reap);
  child.once("exit", () => process.off("exit", reap));
  let out = "";
  // Created right away so a fast exit is never missed.
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const proc: Proc = {
    child,
    output: () => out,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready after ${timeoutMs} ms:\n${out.slice(-3000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (readyPattern.test(out)) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready:\n${out.slice(-3000)}`));
    });
  });
}
