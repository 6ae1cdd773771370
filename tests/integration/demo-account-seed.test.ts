import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "@/lib/auth/auth";
import { DEMO_USER_EMAIL } from "@/lib/auth/demo-account";
import { closeDb, getDb } from "@/lib/db";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { demoBanner, seedDemoAccount } from "@/lib/tenants/seed-demo-account";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// lib/env.ts caches its first read of process.env; nothing above reads it at import time.
process.env.DATABASE_URL = testDatabaseUrl();

describe("seedDemoAccount() (run by npm start before web and worker)", () => {
  let dir: string;
  let tenantId: string;
  const passwordFile = () => path.join(dir, "demo-password");
  const seed = (password?: string) => seedDemoAccount(getDb(), { auth: getAuth(), tenantId, passwordFile: passwordFile(), ...(password ? { password } : {}) });
  const signIn = (password: string) =>
    getAuth()
      .api.signInEmail({ body: { email: DEMO_USER_EMAIL, password } })
      .then(
        (r) => Boolean(r.token),
        () => false,
      );
  const demoUser = () => getDb().user.findUniqueOrThrow({ where: { email: DEMO_USER_EMAIL }, include: { members: true } });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-demo-seed-"));
    tenantId = (await ensureTenant(getDb(), `demo-seed-${randomUUID().slice(0, 8)}`, "Demo team")).id;
    // The demo address is one row per instance: start from an instance that has none.
    await getDb().user.deleteMany({ where: { email: DEMO_USER_EMAIL } });
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await closeDb();
  });

  it("creates the user once, even when seeded concurrently, as the demo team's owner with a generated password kept 0600", async () => {
    const results = await Promise.all([seed(), seed(), seed()]);
    const password = fs.readFileSync(passwordFile(), "utf8").trim();
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(fs.statSync(passwordFile()).mode & 0o777).toBe(0o600);
    expect(results.map((r) => r.password)).toEqual([password, password, password]);
    expect(results.filter((r) => r.created)).toHaveLength(1);

    const user = await demoUser();
    expect(user).toMatchObject({ name: "Demo user", instanceAdmin: false });
    expect(user.members.map((m) => [m.tenantId, m.role])).toEqual([[tenantId, "owner"]]);
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(0); // sign-up's own session is not left behind
    expect(await signIn(password)).toBe(true);
    expect(await signIn("not-the-password")).toBe(false);
    const joined = await getDb().auditEvent.findMany({ where: { tenantId, action: "member.joined" } });
    expect(joined.map((a) => a.actorLabel)).toEqual(["system (demo-seed)"]);
  });

  it("is idempotent: a second start changes nothing and puts a removed owner back", async () => {
    const before = await demoUser();
    const again = await seed();
    expect(again).toMatchObject({ created: false, passwordReset: false, password: fs.readFileSync(passwordFile(), "utf8").trim() });
    const after = await demoUser();
    expect(after.id).toBe(before.id);
    expect(after.members).toHaveLength(1);

    await getDb().member.deleteMany({ where: { userId: after.id, tenantId } });
    await seed();
    expect((await demoUser()).members.map((m) => m.role)).toEqual(["owner"]);
  });

  it("leaves a password the user changed alone and says the generated one no longer works", async () => {
    const generated = fs.readFileSync(passwordFile(), "utf8").trim();
    const session = await getAuth().api.signInEmail({ body: { email: DEMO_USER_EMAIL, password: generated }, returnHeaders: true });
    const cookie = session.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    await getAuth().api.changePassword({ headers: new Headers({ cookie }), body: { currentPassword: generated, newPassword: "my own secret 1" } });

    const result = await seed();
    expect(result.password).toBeNull();
    expect(await signIn("my own secret 1")).toBe(true);
    expect(await signIn(generated)).toBe(false);
    expect(demoBanner(result, "http://localhost:3000/login")[0]).toBe(
      `Demo team: sign in at http://localhost:3000/login as ${DEMO_USER_EMAIL} with the password you gave it`,
    );
  });

  it("TOOLWATCH_DEMO_PASSWORD replaces a different password (signing out its sessions), once", async () => {
    const user = await demoUser();
    expect(await signIn("my own secret 1")).toBe(true);
    const reset = await seed("operator-chosen-1");
    expect(reset).toMatchObject({ created: false, passwordReset: true, password: "operator-chosen-1" });
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(0);
    expect(await signIn("operator-chosen-1")).toBe(true);
    expect(await signIn("my own secret 1")).toBe(false);
    expect(await seed("operator-chosen-1")).toMatchObject({ passwordReset: false, password: "operator-chosen-1" });
    expect((await demoUser()).id).toBe(user.id);
  });

  it("the start banner names the login URL, the account and the password, and how to change them", () => {
    expect(demoBanner({ email: DEMO_USER_EMAIL, password: "s3cret-pass", created: true, passwordReset: false }, "http://localhost:3000/login")).toEqual([
      "Demo team: sign in at http://localhost:3000/login as demo@toolwatch.local / s3cret-pass",
      "(set TOOLWATCH_DEMO_PASSWORD to choose it, or TOOLWATCH_DEMO=false for no demo)",
    ]);
  });
});
