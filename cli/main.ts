import { configureLogger } from "@/lib/logger";

// Commands are loaded when run: `admin` needs no MCP client, `snapshot` no database client.

const USAGE = `usage: toolwatch <command> [options]

commands:
  snapshot   connect to one MCP server, list every tool, print the snapshot (no database)
  diff       compare two tool lists (files) and classify every change; --fail-on ERR|WARN for CI
  lock       connect to one MCP server and write toolwatch.lock.json: its tools, hashes and
             protocol facts, deterministic (no database)
  check      compare a live server with its lock file: tool diff with levels, protocol facts, scanner
             findings on what changed; --fail-on ERR|WARN, exit 1 to fail a CI job
  import     register the servers of an MCP client config, a toolwatch export or an MCP Registry
             with an instance (--api-url, --api-key); idempotent by name; --dry-run
  export     write the team's servers in the format import reads (secrets as \${env:NAME})
  scan       scan a tool list (file or -) offline for tool poisoning; --json, --sarif, --fail-on critical|high|medium|low for CI
  admin      manage the instance: create-team, list-teams, create-key, list-keys, revoke-key
             (uses the same database as "npm start", also while it runs)

run "toolwatch <command> --help" for its options`;

/** Returns the process exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  try {
    // Stdout is the commands' output: diagnostics go to stderr.
    configureLogger("cli", 2);
  } catch {
    // Invalid configuration: the commands that read it say so in their own words.
  }
  const [command, ...rest] = argv;
  switch (command) {
    case "snapshot":
      return (await import("./snapshot-command")).runSnapshotCommand(rest);
    case "diff":
      return (await import("./diff-command")).runDiffCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    case "lock":
      return (await import("./lock-command")).runLockCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    case "check":
      return (await import("./check-command")).runCheckCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    case "scan":
      return (await import("./scan-command")).runScanCommand(rest, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
    case "import":
      return (await import("./import-command")).runImportCommand(rest, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
    case "export":
      return (await import("./export-command")).runExportCommand(rest, { stdout: process.stdout, stderr: process.stderr, env: process.env });
    case "admin":
      return (await import("./admin-command")).runAdminCommand(rest);
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
