import { parseArgs, type ParseArgsConfig } from "node:util";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { createTeam, TeamInput } from "@/lib/auth/teams";
import { isRole, ROLE_NAMES, type ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { PROJECT_ROOT } from "@/lib/project-root";
import { getTenantContext } from "@/lib/tenants/ensure-tenant";
import { listTenants } from "@/lib/tenants/list-tenants";
import { invalidInput } from "@/lib/validation";
import { NoDatabaseError, openInstanceDb } from "./admin-database";

const HELP = `usage: toolwatch admin <command> [options]

commands:
  create-team <slug> [--name <name>]     create an empty team (reached through a key or an invitation)
  list-teams                             every team with its members, servers and active keys
  create-key --team <slug> --role <role> [--name <label>] [--expires-days N]
                                         mint a team API key; the key is printed once, alone on
                                         the last line of stdout
  list-keys --team <slug>                the team's keys (their ids, never their secrets)
  revoke-key --team <slug> <keyId>       disable a key at once

roles: ${ROLE_NAMES.join(" | ")}

Works on the instance's database, configured as for "npm start": DATABASE_URL, else the embedded
Postgres of a running "npm start" (TOOLWATCH_DATA_DIR); safe while Toolwatch runs. Changes are
recorded in the team's audit log as "system (admin-cli)". Exit 0 on success; 1 when the database
or the team cannot be found or the slug is taken; 2 for bad usage.`;

// The team's audit log shows this actor for everything done here.
const ACTOR = { kind: "system", id: "admin-cli" } as const;

class UsageError extends Error {}

type Parsed = { values: Record<string, string | boolean | undefined>; positionals: string[] };
type Command<I> = {
  options: ParseArgsConfig["options"];
  /** Checks the arguments (UsageError = exit 2) before the database is needed. */
  check(args: Parsed): I;
  run(db: Db, input: I): Promise<void>;
};
const command = <I>(c: Command<I>) => c as Command<unknown>;

const COMMANDS: Record<string, Command<unknown>> = {
  "create-team": command({
    options: { name: { type: "string" } },
    check({ values, positionals }) {
      const [slug] = exactly(positionals, 1, "create-team takes one slug");
      const parsed = TeamInput.safeParse({ slug, name: values.name });
      if (!parsed.success) throw new UsageError(invalidInput(parsed.error).message);
      return parsed.data;
    },
    async run(db, input) {
      const team = await createTeam(db, input, null, ACTOR);
      console.log(`created team "${team.name}" (slug ${team.slug}, id ${team.id})`);
      console.log(`next: toolwatch admin create-key --team ${team.slug} --role owner`);
    },
  }),
  "list-teams": command({
    options: {},
    check: ({ positionals }) => exactly(positionals, 0, "list-teams takes no arguments"),
    async run(db) {
      const teams = await listTenants(db);
      if (teams.length === 0) return console.log("no teams yet");
      table(
        ["slug", "name", "members", "servers", "active keys", "id"],
        teams.map((t) => [t.slug, t.name, String(t.members), String(t.servers), String(t.activeKeys), t.id]),
      );
    },
  }),
  "create-key": command({
    options: { team: { type: "string" }, role: { type: "string" }, name: { type: "string" }, "expires-days": { type: "string" } },
    check({ values, positionals }) {
      exactly(positionals, 0, "create-key takes options only");
      const team = teamSlug(values.team);
      const role = values.role;
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLE_NAMES.join(", ")}`);
      const raw = values["expires-days"];
      const days = typeof raw === "string" ? Number(raw) : null;
      if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 3650)) throw new UsageError("--expires-days takes a whole number of days (1–3650)");
      const name = typeof values.name === "string" ? values.name.trim() : "admin-cli";
      if (!name || name.length > 80) throw new UsageError("--name takes a label of 1–80 characters");
      return { team, key: { name, role, expiresInDays: days } };
    },
    async run(db, { team, key: input }) {
      const key = await createApiKey(await teamContext(db, team), input);
      const expires = key.expiresAt ? key.expiresAt.toISOString() : "never";
      console.log(`created API key "${key.name}" for team ${team}: role ${key.role}, id ${key.id}, expires ${expires}`);
      console.log(`it is shown only once, on the next line; send it as "Authorization: Bearer <key>"`);
      console.log(key.key);
    },
  }),
  "list-keys": command({
    options: { team: { type: "string" } },
    check({ values, positionals }) {
      exactly(positionals, 0, "list-keys takes options only");
      return teamSlug(values.team);
    },
    async run(db, team) {
      const keys = await listApiKeys(await teamContext(db, team));
      if (keys.length === 0) return console.log("no keys");
      const when = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace("T", " ") : "—");
      table(
        ["id", "name", "start", "role", "status", "last used", "expires", "created by"],
        keys.map((k) => [k.id, k.name, `${k.start}…`, k.role, k.status, when(k.lastUsedAt), when(k.expiresAt), k.createdBy ?? "—"]),
      );
    },
  }),
  "revoke-key": command({
    options: { team: { type: "string" } },
    check({ values, positionals }) {
      const [keyId] = exactly(positionals, 1, "revoke-key takes one key id (see toolwatch admin list-keys)");
      return { team: teamSlug(values.team), keyId: keyId! };
    },
    async run(db, { team, keyId }) {
      const key = await revokeApiKey(await teamContext(db, team), keyId);
      console.log(`revoked API key "${key.name}" (${key.start}…, id ${key.id}) of team ${team}`);
    },
  }),
};

/** Returns the process exit code; never throws. */
export async function runAdminCommand(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    console.log(HELP);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) return usage(`unknown command "${name}"`);
  let args: Parsed;
  try {
    args = parseArgs({ args: rest, options: { ...command.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true }) as Parsed;
  } catch (error) {
    return usage((error as Error).message);
  }
  if (args.values.help) return console.log(HELP), 0;

  let db: Db | undefined;
  try {
    const input = command.check(args);
    process.chdir(PROJECT_ROOT); // as under `npm start`: a relative TOOLWATCH_DATA_DIR resolves from the package root
    db = await openInstanceDb();
    await command.run(db, input);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    if (error instanceof AppError && error.code === "INVALID_INPUT") return usage(error.message);
    if (error instanceof AppError || error instanceof NoDatabaseError) return fail(error.message);
    return fail(`unexpected error: ${(error as Error).message}`);
  } finally {
    await db?.$disconnect();
  }
}

function teamSlug(value: string | boolean | undefined): string {
  if (typeof value !== "string" || !value.trim()) throw new UsageError("--team <slug> is required");
  return value.trim().toLowerCase();
}

async function teamContext(db: Db, slug: string): Promise<ServiceContext> {
  const ctx = await getTenantContext(db, slug, ACTOR);
  if (!ctx) throw new AppError("NOT_FOUND", `no team with slug "${slug}" (see toolwatch admin list-teams)`);
  return ctx;
}

function exactly(positionals: string[], count: number, message: string): string[] {
  if (positionals.length !== count) throw new UsageError(message);
  return positionals;
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd());
}

function usage(message: string): number {
  console.error(`toolwatch admin: ${message}\n\n${HELP}`);
  return 2;
}

function fail(message: string): number {
  console.error(`toolwatch: ${message}`);
  return 1;
}
