// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { signUp } from "@/tests/helpers/api-client";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authAttempter, type AuthAttempt as Attempt, type AuthOutcome as Outcome } from "@/tests/helpers/auth-attempt";
import { testDb } from "@/tests/helpers/factories";
import { nodeArgsFor } from "@/tests/helpers/test-bundles";

// Password guessing, from the attacker's side: wrong passwords in a row, spread over two web
// processes that share only the database (this test process and a child process, each with
// its own better-auth instance and its own memory). The limits are written here, not read back.

type Settings = Record<string, string>;

// The default per-address brake (TOOLWATCH_AUTH_RATE_LIMIT=10 a minute), per account off.
const PER_ADDRESS: Settings = { TOOLWATCH_AUTH_RATE_LIMIT: "10", TOOLWATCH_AUTH_RATE_PER_ACCOUNT: "0" };
// Five attempts per account per 15 minutes, the per-address brake out of the way.
const PER_ACCOUNT: Settings = { TOOLWATCH_AUTH_RATE_LIMIT: "1000", TOOLWATCH_AUTH_RATE_PER_ACCOUNT: "5/15min" };

/** Web process A: this process. */
const inProcessA = authAttempter(testDb());

/** Web process B: a child process (tests/fixtures/auth-web-process.ts), one attempt per line. */
let child: ChildProcessWithoutNullStreams;
let lines: AsyncIterator<string>;
async function childB(a: Attempt): Promise<Outcome> {
  child.stdin.write(`${JSON.stringify(a)}\n`);
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error("the second web process exited");
    // The process's own log lines are JSON too (pino): an outcome is the line with a status.
    if (!next.value.startsWith("{")) continue;
    const parsed = JSON.parse(next.value) as Partial<Outcome> & { level?: number };
    if (typeof parsed.status === "number" && parsed.level === undefined) return parsed as Outcome;
  }
}

/** Attempt n (1-based) goes to A when odd, to B when even. */
const alternate = (n: number, a: Attempt) => (n % 2 === 1 ? inProcessA(a) : childB(a));
const signIn = (env: Settings, email: string, password: string, ip: string): Attempt => ({ env, path: "/sign-in/email", body: { email, password }, ip });

beforeAll(async () => {
  child = spawn(process.execPath, nodeArgsFor(path.resolve(import.meta.dirname, "../fixtures/auth-web-process.ts")), { env: process.env, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(`[auth web process] ${chunk.toString()}`));
  lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error("the second web process exited before it was ready");
    if (next.value.includes("ready")) break;
  }
});

afterAll(() => {
  child?.kill("SIGTERM");
});

describe("password guessing meets a 429 that every web process enforces", () => {
  it("25 wrong passwords in a row for one account from one address: 429 from attempt 11, with Retry-After", async () => {
    const victim = await signUp("victim");
    const outcomes: Outcome[] = [];
    for (let n = 1; n <= 25; n++) outcomes.push(await alternate(n, signIn(PER_ADDRESS, victim.email, `wrong-guess-${n}`, "203.0.113.7")));
    expect(outcomes.map((o) => o.status)).toEqual([...Array<number>(10).fill(401), ...Array<number>(15).fill(429)]);
    for (const o of outcomes.slice(10)) {
      expect(o.retryAfter).toMatch(/^\d+$/);
      expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(o.retryAfter)).toBeLessThanOrEqual(60);
    }
    // The brake is per address: the same account from another address is still answered.
    expect((await alternate(1, signIn(PER_ADDRESS, victim.email, "wrong-again", "203.0.113.8"))).status).toBe(401);
    expect((await alternate(2, signIn(PER_ADDRESS, victim.email, "correct-horse-battery", "203.0.113.9"))).status).toBe(200);
  });

  it("one account guessed from many addresses: 429 from attempt 6, even for the right password, other accounts unaffected", async () => {
    const victim = await signUp("spread-victim");
    const bystander = await signUp("bystander");
    const outcomes: Outcome[] = [];
    for (let n = 1; n <= 7; n++) outcomes.push(await alternate(n, signIn(PER_ACCOUNT, victim.email, `wrong-${n}`, `198.51.100.${n}`)));
    expect(outcomes.map((o) => o.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    for (const o of outcomes.slice(5)) expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
    for (const o of outcomes.slice(5)) expect(Number(o.retryAfter)).toBeLessThanOrEqual(900);
    // Addresses are case-folded: the same account in capitals is the same bucket.
    expect((await alternate(1, signIn(PER_ACCOUNT, victim.email.toUpperCase(), "wrong-caps", "198.51.100.50"))).status).toBe(429);
    expect((await alternate(2, signIn(PER_ACCOUNT, victim.email, "correct-horse-battery", "198.51.100.51"))).status).toBe(429);
    expect((await alternate(1, signIn(PER_ACCOUNT, bystander.email, "correct-horse-battery", "198.51.100.52"))).status).toBe(200);
  });

  it("sign-up and password-reset requests count against the account too", async () => {
    const email = `reset-${Date.now()}@access.test`;
    const outcomes: Outcome[] = [];
    for (let n = 1; n <= 6; n++) {
      const a: Attempt = n <= 3
        ? { env: PER_ACCOUNT, path: "/sign-up/email", body: { email, password: "short", name: "x" }, ip: `192.0.2.${n}` }
        : { env: PER_ACCOUNT, path: "/request-password-reset", body: { email }, ip: `192.0.2.${n}` };
      outcomes.push(await alternate(n, a));
    }
    expect(outcomes.slice(0, 5).every((o) => o.status !== 429)).toBe(true);
    expect(outcomes[5]!.status).toBe(429);
  });
});
