import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { recordAudit } from "@/lib/audit-log/record-audit";
import type { Auth } from "@/lib/auth/auth";
import { DEMO_USER_EMAIL, DEMO_USER_NAME } from "@/lib/auth/demo-account";
import type { ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";

// The demo account that `npm start` prints: demo@toolwatch.local, owner of the demo team, never
// the instance administrator (lib/auth/auth.ts skips the promotion for this address). Seeded by the
// supervisor alone, before web and worker start; still safe if two instances seed one database.

export type DemoAccount = {
  email: string;
  /** The password that signs in, or null when someone changed the generated one since. */
  password: string | null;
  created: boolean;
  /** TOOLWATCH_DEMO_PASSWORD differed from the stored password and replaced it. */
  passwordReset: boolean;
};

export type SeedDemoAccountOptions = {
  auth: Auth;
  tenantId: string;
  /** TOOLWATCH_DEMO_PASSWORD: chosen by the operator, enforced on every start. */
  password?: string;
  /** Where a generated password is kept (created once, mode 0600) when none is configured. */
  passwordFile: string;
};

// internal-writer: the demo account's seed (system)
export async function seedDemoAccount(db: Db, options: SeedDemoAccountOptions): Promise<DemoAccount> {
  // Seeders take turns (the lock lives as long as this transaction; the work runs on other
  // connections), so two instances starting on one database cannot both create the user.
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('toolwatch:demo-account'))`;
      return seedUnderLock(db, options);
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}

async function seedUnderLock(db: Db, options: SeedDemoAccountOptions): Promise<DemoAccount> {
  const { auth } = options;
  const configured = options.password;
  const password = configured ?? readOrCreatePassword(options.passwordFile);
  const { password: hasher } = await auth.$context;

  let created = false;
  let user = await db.user.findUnique({ where: { email: DEMO_USER_EMAIL }, select: { id: true } });
  if (!user) {
    // Through better-auth, so the password is hashed as sign-in expects.
    const result = await auth.api.signUpEmail({ body: { email: DEMO_USER_EMAIL, password, name: DEMO_USER_NAME } });
    if (result.token) await db.session.deleteMany({ where: { token: result.token } }); // sign-up signs in; nobody holds that session
    user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USER_EMAIL }, select: { id: true } });
    created = true;
  }

  let works = created;
  let passwordReset = false;
  if (!created) {
    const credential = await db.account.findFirst({ where: { userId: user.id, providerId: "credential" }, select: { id: true, password: true } });
    works = Boolean(credential?.password) && (await hasher.verify({ hash: credential!.password!, password }));
    // A password the user chose is theirs to keep, unless the operator configured one.
    if (!works && configured !== undefined) {
      const hash = await hasher.hash(configured);
      if (credential) await db.account.update({ where: { id: credential.id }, data: { password: hash } });
      else await db.account.create({ data: { userId: user.id, accountId: user.id, providerId: "credential", password: hash } });
      // Whoever signed in with the old password is out, as after any password reset.
      await db.session.deleteMany({ where: { userId: user.id } });
      works = passwordReset = true;
    }
  }

  await ensureOwner(db, options.tenantId, user.id);
  return { email: DEMO_USER_EMAIL, password: works ? password : null, created, passwordReset };
}

/** Owner of the demo team; put back if removed, but a role someone changed on purpose stays. */
async function ensureOwner(db: Db, tenantId: string, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.member.createMany({ data: [{ tenantId, userId, role: "owner" }], skipDuplicates: true });
    if (count === 0) return;
    const member = await tx.member.findUniqueOrThrow({ where: { tenantId_userId: { tenantId, userId } }, select: { id: true } });
    const ctx: ServiceContext = { tenantId, db, actor: { kind: "system", id: "demo-seed" } };
    await recordAudit(tx, ctx, "member.joined", { type: "member", id: member.id }, { email: DEMO_USER_EMAIL, role: "owner" });
  });
}

/**
 * The generated password, made once per data dir. Written to a private temp file and linked
 * into place, so a concurrent reader sees the whole password or no file, never half of one.
 */
export function readOrCreatePassword(file: string): string {
  const existing = readPassword(file);
  if (existing !== undefined) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fresh = randomBytes(12).toString("base64url");
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, `${fresh}\n`, { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readPassword(file)!;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readPassword(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (text.length < 8) throw new Error(`${file} holds no usable demo password (8 characters at least): fix or delete it`);
  return text;
}

/** The lines `npm start` prints once the web server is ready. */
export function demoBanner(account: DemoAccount, loginUrl: string): string[] {
  const how = "(set TOOLWATCH_DEMO_PASSWORD to choose it, or TOOLWATCH_DEMO=false for no demo)";
  if (account.password === null) {
    return [
      `Demo team: sign in at ${loginUrl} as ${account.email} with the password you gave it`,
      "(its generated password was changed; set TOOLWATCH_DEMO_PASSWORD to reset it, or TOOLWATCH_DEMO=false for no demo)",
    ];
  }
  return [`Demo team: sign in at ${loginUrl} as ${account.email} / ${account.password}`, how];
}
