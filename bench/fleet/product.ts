import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/tests/helpers/processes";
import { cmdline, descendants } from "./proc-stats";


// The product as a user starts it: `npm start` (scripts/start.ts) with the demo off, a fresh
// data dir and a free port. The web, worker and Postgres pids are found in its process tree.
const ROOT = path.resolve(import.meta.dirname, "../..");

export type Product = {
  baseUrl: string;
  dataDir: string;
  databaseUrl: string;
  webPid: number;
  workerPid: number;
  postgresPid: number;
  env: Record<string, string>;
  /** Where stop() leaves the product's combined output (web, worker, supervisor). */
  logFile: string;
  output(): string;
  stop(): Promise<void>;
};


function waitFor(child: ChildProcess, out: () => string, pattern: RegExp, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not ready after ${timeoutMs} ms\n${out().slice(-3000)}`)), timeoutMs);
    const check = () => {
      if (pattern.test(out())) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    };
    const poll = setInterval(check, 100);
    child.once("exit", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`${what} exited (${code}) before it was ready\n${out().slice(-3000)}`));
    });
  });
}

export async function startProduct(extraEnv: Record<string, string> = {}): Promise<Product> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-fleet-bench-"));
  const port = await freePort();
  // Stdio servers are registered with an API key, so team admins may add them (the operator setting).
  // The fixture fleet listens on loopback: its servers are private targets, which only an
  // operator setting opens to a team without an instance administrator.
  // The API load (api-load.ts) drives 50 clients through one key: the limiter runs (its cost is
  // measured) with limits no client reaches; at the defaults (600/min a key) it would answer 429s.
  const env = { TOOLWATCH_DEMO: "0", TOOLWATCH_STDIO_POLICY: "all", TOOLWATCH_PRIVATE_TARGETS: "all", TOOLWATCH_API_RATE_PER_KEY: "10000000/min", TOOLWATCH_API_RATE_PER_TEAM: "10000000/min", TOOLWATCH_DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", ...extraEnv };
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const append = (chunk: Buffer) => void (out = (out + chunk.toString()).slice(-2_000_000));
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitFor(child, () => out, /Toolwatch is ready at[\s\S]*watching \d+ server|watching \d+ server[\s\S]*Toolwatch is ready at/, 300_000, "npm start");
  const tree = descendants(child.pid!);
  const find = (re: RegExp) => tree.find((p) => re.test(cmdline(p)));
  const webPid = find(/tsx server\.ts|toolwatch-web\.mjs/);
  const workerPid = find(/tsx worker\/main\.ts|toolwatch-worker\.mjs/);
  const postgresPid = tree.find((p) => /\/postgres\s+-D|bin\/postgres/.test(cmdline(p)) && !/postgres:/.test(cmdline(p)));
  if (!webPid || !workerPid || !postgresPid) throw new Error(`could not find web/worker/postgres in the process tree of ${child.pid}`);
  const environ = fs.readFileSync(`/proc/${workerPid}/environ`, "utf8").split("\0");
  const logFile = path.join(os.tmpdir(), "toolwatch-fleet-logs", `${path.basename(dataDir)}.log`);
  const databaseUrl = environ.find((l) => l.startsWith("DATABASE_URL="))!.slice("DATABASE_URL=".length);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl,
    webPid,
    workerPid,
    postgresPid,
    env,
    logFile,
    output: () => out,
    stop: async () => {
      // Ctrl-C as a user would; a second signal forces.
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGINT"), 30_000);
      await exited;
      clearTimeout(timer);
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      fs.writeFileSync(logFile, out);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One more worker next to the product (`npm run worker`), on the same database. */
export function startExtraWorker(product: Product, label: string): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/main.ts", "--no-demo"], {
    cwd: ROOT,
    env: { ...process.env, ...product.env, DATABASE_URL: product.databaseUrl, TOOLWATCH_WORKER_ID: label },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const append = (chunk: Buffer) => void (out = (out + chunk.toString()).slice(-2_000_000));
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  return { child, output: () => out, ready: waitFor(child, () => out, /watching \d+ server/, 60_000, label) };
}
