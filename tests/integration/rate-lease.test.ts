import "@/tests/helpers/test-env";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { consume, LeaseStore, type Bucket } from "@/lib/rate-limit/counter";
import { testDb } from "@/tests/helpers/factories";

// Claim-ahead rate counting (lib/rate-limit/counter.ts LeaseStore): a web process claims 2 % of a
// limit at a time (at least 1, at most 100) and spends it locally, so a busy key costs one
// statement per claim. Expected counts are worked out by hand from that rule.
const bucket = (limit: number, windowSeconds = 60): Bucket => ({ key: `test:lease:${randomUUID()}`, limit, windowSeconds });
const counted = async (key: string) => (await testDb().$queryRaw<{ count: number }[]>`SELECT count FROM rate_counter WHERE key = ${key}`)[0]?.count ?? 0;

describe("rate counter claim-ahead", () => {
  it("a limit of 200 claims 4 tokens a time: 10 requests are 3 claims, 12 counted, all allowed", async () => {
    const b = bucket(200);
    const leases = new LeaseStore();
    const decisions = [];
    for (let i = 0; i < 10; i++) decisions.push(await consume(testDb(), [b], leases));
    expect(decisions.every((d) => d!.allowed)).toBe(true);
    expect(await counted(b.key)).toBe(12);
    // Remaining as a client sees it goes down one by one: 200 − 10 requests.
    expect(decisions.at(-1)!.binding.remaining).toBe(190);
  });

  it("two processes never admit more than the limit together, and at most (claim − 1) per process fewer", async () => {
    const b = bucket(200);
    const stores = [new LeaseStore(), new LeaseStore()];
    let allowed = 0;
    for (let i = 0; i < 150; i++) for (const store of stores) if ((await consume(testDb(), [b], store))!.allowed) allowed++;
    expect(allowed).toBeLessThanOrEqual(200);
    expect(allowed).toBeGreaterThanOrEqual(200 - 2 * 3);
  });

  it("two processes claiming at the same moment (300 requests in flight) admit at most the limit, and at most (claim − 1) per process fewer", async () => {
    const b = bucket(200);
    const stores = [new LeaseStore(), new LeaseStore()];
    const decisions = await Promise.all(Array.from({ length: 300 }, (_, i) => consume(testDb(), [b], stores[i % 2])));
    const allowed = decisions.filter((d) => d!.allowed).length;
    expect(allowed).toBeLessThanOrEqual(200);
    // In flight together, each request that finds no token claims 4 more: what a process claimed
    // and did not spend is the bound on admitting fewer (here every claim is spent: 300 > 200).
    expect(allowed).toBeGreaterThanOrEqual(200 - 2 * 3);
  });

  it("limits of 50 or less count one by one: 10 per minute admits exactly 10 of 15", async () => {
    const b = bucket(10);
    const leases = new LeaseStore();
    const results = [];
    for (let i = 0; i < 15; i++) results.push((await consume(testDb(), [b], leases))!.allowed);
    expect(results).toEqual([...Array(10).fill(true), ...Array(5).fill(false)]);
    expect(await counted(b.key)).toBe(15);
  });

  it("a key's claim running out does not re-claim its team's: key 200 (claim 4) and team 1000 (claim 20), 10 requests", async () => {
    const key = bucket(200);
    const team = bucket(1000);
    const leases = new LeaseStore();
    for (let i = 0; i < 10; i++) expect((await consume(testDb(), [key, team], leases))!.allowed).toBe(true);
    expect(await counted(key.key)).toBe(12);
    expect(await counted(team.key)).toBe(20);
  });

  it("a claim ends with its window: the next window claims afresh", async () => {
    const b = bucket(200, 1);
    let clock = 0;
    const leases = new LeaseStore(() => clock);
    expect((await consume(testDb(), [b], leases))!.allowed).toBe(true);
    expect(await counted(b.key)).toBe(4);
    clock += 1500; // past the local end of the window; the database's window has ended too
    await new Promise((r) => setTimeout(r, 1100));
    expect((await consume(testDb(), [b], leases))!.allowed).toBe(true);
    expect(await counted(b.key)).toBe(4); // a new window: the counter started over with one claim
  });
});
