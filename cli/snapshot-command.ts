import { parseArgs } from "node:util";
import { describeError } from "@/lib/discovery/discovery-error";
import { DiscoverySession } from "@/lib/discovery/discovery-session";
import { rootLogger } from "@/lib/logger";
import { describeListing, takeSnapshot } from "@/lib/discovery/take-snapshot";
import { UsageError } from "./parse-target";
import { renderSnapshot, visible } from "./render-snapshot";
import { OAUTH_USAGE } from "./oauth-options";
import { resolveTarget, TARGET_OPTIONS, withConnectOptions } from "./target-options";

const HELP = `usage: toolwatch snapshot (--stdio "<command and args>" [--env K=V]… [--cwd dir]
                          | --url <url> [--header "Name: value"]…)
                         [--transport auto|streamable-http|sse] [--era auto|legacy|modern]
                         [--timeout ms] [--max-pages n] [--block-private] [--json] [--watch]
                         [--call-tool name]
                         [OAuth: --oauth | --oauth-headless | --client-id … (see below)]

Connects with the same engine as the worker, walks every page of tools/list and prints the
snapshot. --watch stays connected and prints a line per change. --call-tool calls one tool with
{} arguments after listing (a smoke test, e.g. of OAuth step-up; it may have side effects).
Exit 0 on success; 1 with one line on stderr when the server fails; 2 for bad usage.

${OAUTH_USAGE}
Tokens and secrets are kept in memory for the run only and never printed.`;

export async function runSnapshotCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...TARGET_OPTIONS,
        json: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        "call-tool": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help) return console.log(HELP), 0;
  let target;
  try {
    target = resolveTarget(values);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }
  try {
    return await withConnectOptions(target, async (common) => {
      if (values.watch) return await watch(target.config, common, values.json);
      const callTool = values["call-tool"];
      const snapshot = await takeSnapshot(target.config, { ...common, ...(callTool ? { callTool } : {}) });
      console.log(values.json ? JSON.stringify(snapshotJson(snapshot), null, 2) : renderSnapshot(snapshot));
      if (snapshot.toolCall && !values.json) console.log(`called ${visible(snapshot.toolCall.name)}: ${snapshot.toolCall.isError ? "tool error" : "ok"}`);
      return snapshot.toolCall?.isError ? 1 : 0;
    });
  } catch (error) {
    const { code, message } = describeError(error);
    console.error(`toolwatch: ${code}: ${visible(message).split("\n")[0]}`);
    return 1;
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

/** --json: the snapshot with its prompts, resources, templates and instructions at the top level (the shape `toolwatch diff` reads). */
function snapshotJson(snapshot: Awaited<ReturnType<typeof takeSnapshot>>) {
  const { surface, ...rest } = snapshot;
  return { ...rest, ...surface };
}
