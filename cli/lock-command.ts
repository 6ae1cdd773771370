import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { visibleText } from "@/lib/diff";
import { buildLockfile, lockedServerFacts, serializeLockfile } from "@/lib/lockfile";
import { UsageError } from "./parse-target";
import { liveSnapshotOrExit, resolveTarget, TARGET_OPTIONS, TARGET_USAGE } from "./target-options";

const HELP = `usage: toolwatch lock ${TARGET_USAGE}
    [-o FILE]

Connects like "toolwatch snapshot", lists every tool and writes a lock file for
"toolwatch check": the tools (sorted, each with its content hash), the hash of the whole list,
and the server's protocol version, era, transport, serverInfo, capabilities and instructions.
The same server gives a byte-identical file. Header and env values, the command line and the URL
are never written (see docs/ci-gate.md).

  -o FILE   where to write (default toolwatch.lock.json; "-" prints it instead)

Exit 0 on success; 2 for bad usage or when the server cannot be reached or listed.`;

export type LockIo = { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };

export async function runLockCommand(argv: string[], io: LockIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const usage = (message: string) => (io.stderr.write(`toolwatch lock: ${message}\n\n${HELP}\n`), 2);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { ...TARGET_OPTIONS, output: { type: "string", short: "o", default: "toolwatch.lock.json" }, help: { type: "boolean", short: "h", default: false } },
    }));
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help) return io.stdout.write(`${HELP}\n`), 0;
  let target;
  try {
    target = resolveTarget(values);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }

  const snapshot = await liveSnapshotOrExit("lock", target, io.stderr);
  if (snapshot === 2) return 2;

  const lock = buildLockfile(lockedServerFacts(snapshot.facts), snapshot.listing.tools);
  const text = serializeLockfile(lock);
  const out = values.output;
  if (out === "-") {
    io.stdout.write(text);
    return 0;
  }
  try {
    await writeAtomically(out, text);
  } catch (error) {
    io.stderr.write(`toolwatch lock: cannot write ${visibleText(out)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
    return 2;
  }
  io.stderr.write(`toolwatch lock: wrote ${visibleText(out)} (${lock.toolCount} tools, ${lock.contentHash})\n`);
  return 0;
}

/** Temp file + rename: a CI run never sees half a lock file. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, text, "utf8");
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
