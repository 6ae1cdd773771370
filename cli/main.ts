import { runSnapshotCommand } from "./snapshot-command";

const USAGE = `usage: toolwatch <command> [options]

commands:
  snapshot   connect to one MCP server, list every tool, print the snapshot (no database)

run "toolwatch <command> --help" for its options`;

/** Returns the process exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "snapshot":
      return runSnapshotCommand(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`toolwatch: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}
