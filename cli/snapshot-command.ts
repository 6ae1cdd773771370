import { parseArgs } from "node:util";
import { describeError } from "../lib/discovery/discovery-error";
import { DiscoverySession } from "../lib/discovery/discovery-session";
import { createGuardedFetch } from "../lib/discovery/node/guarded-fetch";
import type { EraMode } from "../lib/discovery/open-connection";
import { rootLogger } from "../lib/logger";
import { describeListing, takeSnapshot } from "../lib/discovery/take-snapshot";
import { parseTarget, UsageError } from "./parse-target";
import { renderSnapshot, visible } from "./render-snapshot";

const HELP = `usage: toolwatch snapshot (--stdio "<command and args>" [--env K=V]… [--cwd dir]
                          | --url <url> [--header "Name: value"]…)
                         [--transport auto|streamable-http|sse] [--era auto|legacy|modern]
                         [--timeout ms] [--max-pages n] [--block-private] [--json] [--watch]

Connects with the same engine as the worker, walks every page of tools/list and prints the
snapshot. --watch stays connected and prints a line per change. Exit 0 on success; 1 with one
line on stderr when the server fails; 2 for bad usage.`;

export async function runSnapshotCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        stdio: { type: "string" },
        url: { type: "string" },
        env: { type: "string", multiple: true },
        header: { type: "string", multiple: true },
        cwd: { type: "string" },
        transport: { type: "string", default: "auto" },
        era: { type: "string", default: "auto" },
        timeout: { type: "string", default: "20000" },
        "max-pages": { type: "string", default: "1000" },
        "block-private": { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help) return console.log(HELP), 0;
  if (!["auto", "streamable-http", "sse"].includes(values.transport)) return usage(`--transport must be auto, streamable-http or sse`);
  if (!["auto", "legacy", "modern"].includes(values.era)) return usage(`--era must be auto, legacy or modern`);
  const timeout = Number(values.timeout);
  const maxPages = Number(values["max-pages"]);
  if (!Number.isInteger(timeout) || timeout < 100) return usage("--timeout takes milliseconds (at least 100)");
  if (!Number.isInteger(maxPages) || maxPages < 1) return usage("--max-pages takes a positive whole number");

  let config;
  try {
    config = parseTarget(values);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }
  const guarded = createGuardedFetch({ blockPrivate: values["block-private"], maxResponseBytes: 16 * 1024 * 1024 });
  const common = {
    era: values.era as EraMode,
    connectTimeoutMs: timeout,
    requestTimeoutMs: timeout,
    maxPages,
    fetch: guarded,
    fallbackToSse: values.transport === "auto",
  };
  try {
    if (values.watch) return await watch(config, common, values.json);
    const snapshot = await takeSnapshot(config, common);
    console.log(values.json ? JSON.stringify(snapshot, null, 2) : renderSnapshot(snapshot));
    return 0;
  } catch (error) {
    const { code, message } = describeError(error);
    console.error(`toolwatch: ${code}: ${visible(message).split("\n")[0]}`);
    return 1;
  } finally {
    await guarded.close();
  }
}

function usage(message: string): number {
  console.error(`toolwatch snapshot: ${message}\n\n${HELP}`);
  return 2;
}

/** Keeps a real discovery session open; prints the first snapshot, then one line per change. */
async function watch(config: Parameters<typeof takeSnapshot>[0], common: Omit<Parameters<typeof takeSnapshot>[1], "onListChanged">, json: boolean): Promise<number> {
  let lastHash: string | undefined;
  let lastNames = new Map<string, string>();
  const session = new DiscoverySession(
    config,
    { ...common, debounceMs: 300, pollIntervalMs: 60_000, backoffMaxMs: 30_000, verdict: undefined },
    {
      // The session's own lines are diagnostics (pino, on stderr); the changes below are the output.
      log: (line) => rootLogger().info(visible(line)),
      state: async (change) => {
        if (change.status) rootLogger().info(`${change.status}${change.reason ? `: ${visible(change.reason)}` : ""}`);
      },
      listing: async (listing, { trigger, facts }) => {
        const snap = describeListing(facts, listing, performance.now());
        if (snap.contentHash === lastHash) return;
        const names = new Map(snap.tools.map((t) => [t.name, t.hash]));
        if (json) console.log(JSON.stringify({ trigger, ...snap }));
        else if (!lastHash) console.log(renderSnapshot(snap));
        else {
          const added = [...names.keys()].filter((n) => !lastNames.has(n));
          const removed = [...lastNames.keys()].filter((n) => !names.has(n));
          const changed = [...names].filter(([n, h]) => lastNames.has(n) && lastNames.get(n) !== h).map(([n]) => n);
          console.log(
            `${new Date().toISOString()} ${trigger}: ${snap.tools.length} tools` +
              (added.length ? ` +${added.map(visible).join(",")}` : "") +
              (removed.length ? ` −${removed.map(visible).join(",")}` : "") +
              (changed.length ? ` ~${changed.map(visible).join(",")}` : "") +
              ` ${snap.contentHash.slice(0, 24)}`,
          );
        }
        lastHash = snap.contentHash;
        lastNames = names;
      },
    },
  );
  session.start();
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await session.stop();
  return 0;
}
