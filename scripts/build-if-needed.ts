import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const STAMP = path.join(ROOT, ".next", "toolwatch-build.json");
/**
 * server.ts compiled to one ESM file (node_modules stay external). `npm start` runs the web
 * process from it with plain node: through the tsx loader (a hooks thread that sees every import)
 * the web process used ~130 MiB more RSS (bench/RESULTS.md, "web RSS").
 */
export const WEB_BUNDLE = path.join(ROOT, ".next", "toolwatch-web.mjs");
/** worker/main.ts compiled the same way (the worker, too, ran ~130 MiB heavier through tsx). */
export const WORKER_BUNDLE = path.join(ROOT, ".next", "toolwatch-worker.mjs");
const INPUTS = ["app", "lib", "proxy.ts", "server.ts", "next.config.js", "tsconfig.json", "package-lock.json"];
const SKIP = new Set(["generated", "node_modules"]);

/** Content fingerprint of everything the production build depends on (mtimes lie after a clone). */
export function buildFingerprint(): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const abs = path.join(ROOT, rel);
    if (!fs.existsSync(abs)) return;
    const stat = fs.statSync(abs);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) if (!SKIP.has(name)) visit(path.join(rel, name));
    } else {
      hash.update(rel).update("\0").update(fs.readFileSync(abs)).update("\0");
    }
  };
  INPUTS.forEach(visit);
  return hash.digest("hex");
}

// Outside .next/: `next build` empties that folder when it starts, lock included.
const LOCK = path.join(os.tmpdir(), `toolwatch-build-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}.lock`);
const STALE_LOCK_MS = 15 * 60_000;

/**
 * One build at a time across processes: integration test files run two at a time and several of
 * them build before starting a web process; two `next build`s in one .next/ break each other.
 */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true }); // a build that died holding it
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Runs `next build` unless the last successful build was made from exactly these inputs. */
export function buildIfNeeded(log: (line: string) => void = console.log): Promise<"built" | "up-to-date"> {
  return withBuildLock(() => buildIfNeededLocked(log));
}

async function buildIfNeededLocked(log: (line: string) => void): Promise<"built" | "up-to-date"> {
  const fingerprint = buildFingerprint();
  const stamp = fs.existsSync(STAMP) ? (JSON.parse(fs.readFileSync(STAMP, "utf8")) as { fingerprint?: string }) : {};
  if (stamp.fingerprint === fingerprint && fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    // The process bundles take about a second: made on every start, so they never lag the sources.
    await bundleProcesses();
    return "up-to-date";
  }
  log("building the web app (next build)…");
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`))));
  });
  await bundleProcesses();
  // Stamp the inputs as they were when the build started: a source edited while `next build` ran
  // is not in the build, and must make the next check build again (a stamp taken afterwards let a
  // stale build pass as current). If Next itself rewrote tsconfig.json, the next check builds once
  // more and is stable after that.
  fs.writeFileSync(STAMP, JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
  log(`build finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return "built";
}

/** Compiles server.ts and worker/main.ts (with the lib/ modules they import) for plain node; see WEB_BUNDLE. */
export async function bundleProcesses(): Promise<void> {
  const { build } = await import("esbuild");
  const common = {
    bundle: true,
    platform: "node" as const,
    format: "esm" as const,
    target: "node20",
    packages: "external" as const,
    // The bundles live in .next/: lib/project-root.ts reads the project root from this constant.
    banner: { js: 'import { fileURLToPath as __toolwatchPath } from "node:url"; const __toolwatchRoot = __toolwatchPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");' },
    logLevel: "warning" as const,
  };
  // Written aside and renamed: a process starting from the bundle meanwhile reads the old one whole.
  for (const [entry, outfile] of [[path.join(ROOT, "server.ts"), WEB_BUNDLE], [path.join(ROOT, "worker", "main.ts"), WORKER_BUNDLE]] as const) {
    const aside = `${outfile}.${process.pid}.tmp`;
    await build({ ...common, entryPoints: [entry], outfile: aside });
    fs.renameSync(aside, outfile);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildIfNeeded();
}
