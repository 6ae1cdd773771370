import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { visibleText } from "@/lib/diff";
import { checkAgainstLock, checkFails, lockedServerFacts, LockfileError, parseLockfile, type Lockfile } from "@/lib/lockfile";
import { UsageError } from "./parse-target";
import { renderCheckText } from "./render-check";
import { liveSnapshotOrExit, resolveTarget, TARGET_OPTIONS, TARGET_USAGE } from "./target-options";

const HELP = `usage: toolwatch check --lock FILE ${TARGET_USAGE}
    [--fail-on ERR|WARN] [--fail-on-scan critical|high|medium|low] [--json]

Connects like "toolwatch snapshot" and compares the live server with a lock file written by
"toolwatch lock": the tool diff with levels (ERR breaks callers, WARN may, INFO does not), changes
to the protocol facts (protocol version, serverInfo, capabilities, instructions) as WARN or INFO
lines, and the scanner's findings on the tools that were added or changed.

  --lock FILE          the lock file (e.g. toolwatch.lock.json)
  --fail-on LEVEL      exit 1 if any finding is at LEVEL or above (default ERR; WARN: WARN or ERR)
  --fail-on-scan SEV   also exit 1 if the scanner's severity on what changed is SEV or above
  --json               print the result as JSON (stable shape, "version": 1)

Exit 0 when the gate passes, 1 when it fails, 2 for bad usage, an unreadable or invalid lock
file, or a server that cannot be reached or listed.`;

export type CheckIo = { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };

const SCAN_LEVELS = ["critical", "high", "medium", "low"] as const;

export async function runCheckCommand(argv: string[], io: CheckIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const usage = (message: string) => (io.stderr.write(`toolwatch check: ${message}\n\n${HELP}\n`), 2);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        ...TARGET_OPTIONS,
        lock: { type: "string" },
        "fail-on": { type: "string", default: "ERR" },
        "fail-on-scan": { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help) return io.stdout.write(`${HELP}\n`), 0;
  if (!values.lock) return usage("--lock FILE is required (write one with: toolwatch lock)");
  const failOn = values["fail-on"].toUpperCase();
  if (failOn !== "ERR" && failOn !== "WARN") return usage("--fail-on takes ERR or WARN");
  const scanFailOn = values["fail-on-scan"]?.toLowerCase() as (typeof SCAN_LEVELS)[number] | undefined;
  if (scanFailOn !== undefined && !SCAN_LEVELS.includes(scanFailOn)) return usage("--fail-on-scan takes critical, high, medium or low");
  let target;
  try {
    target = resolveTarget(values);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }

  // The lock first: a broken lock fails fast, before any connection.
  let lock: Lockfile;
  try {
    lock = parseLockfile(await readLockText(values.lock));
  } catch (error) {
    if (!(error instanceof LockfileError)) throw error;
    io.stderr.write(`toolwatch check: lock file ${visibleText(values.lock)}: ${visibleText(error.message)}\n`);
    return 2;
  }

  const snapshot = await liveSnapshotOrExit("check", target, io.stderr);
  if (snapshot === 2) return 2;

  const check = checkAgainstLock(lock, { server: lockedServerFacts(snapshot.facts), tools: snapshot.listing.tools });
  const verdict = checkFails(check, failOn, scanFailOn);
  if (values.json) io.stdout.write(`${JSON.stringify({ ...check, failOn, failOnScan: scanFailOn ?? null, failed: verdict.failed }, null, 2)}\n`);
  else io.stdout.write(`${renderCheckText(check, values.lock)}\n`);
  if (!verdict.failed) return 0;
  if (!values.json) io.stderr.write(`toolwatch check: failing: ${verdict.reasons.join("; ")}\n`);
  return 1;
}

async function readLockText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new LockfileError(code === "ENOENT" ? "no such file (write one with: toolwatch lock)" : code === "EISDIR" ? "is a directory" : `cannot be read (${code ?? (error as Error).message})`);
  }
}
