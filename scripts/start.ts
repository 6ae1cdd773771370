import { fork } from "node:child_process";
import path from "node:path";
import { configureLogger } from "@/lib/logger";

// `npm start`: runs the supervisor in its own process group, so a terminal Ctrl-C reaches only
// this process, which then asks the supervisor (over IPC) to stop things in order: web and
// worker first, Postgres last. Otherwise Postgres would get the same SIGINT and die first.
const supervisor = fork(path.join(import.meta.dirname, "supervisor.ts"), process.argv.slice(2), {
  detached: true,
  stdio: "inherit",
  execArgv: ["--import", "tsx"],
});

// If our output pipe goes away (e.g. `npm start | tee log` and Ctrl-C kills tee), keep going:
// the shutdown below must still reach the supervisor.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

let asked = 0;
const stop = (signal: string) => {
  asked++;
  if (asked === 1) {
    supervisor.send({ type: "shutdown", signal });
    configureLogger("toolwatch").info(`${signal}: shutting down (press Ctrl-C again to force)`);
  } else {
    supervisor.kill("SIGKILL");
    process.exit(130);
  }
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
supervisor.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
