import { randomUUID } from "node:crypto";

// The product's HTTP API as a client script would use it: sign up, make a team and an API key,
// register servers (bulk when the instance has `POST /api/v1/servers/batch`, else 16 single POSTs
// in flight).
export type Team = { id: string; key: string; cookie: string };

async function json(res: Response, what: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

export async function signUp(baseUrl: string, label: string): Promise<string> {
  const email = `${label}-${randomUUID().slice(0, 8)}@bench.example`;
  const res = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email, password: "correct horse battery", name: `Bench ${label}` }),
  });
  await json(res, "sign-up");
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/** Creates a team (it becomes the session's active team) and an admin API key in it. */
export async function createTeamWithKey(baseUrl: string, cookie: string, label: string): Promise<Team> {
  const headers = { "content-type": "application/json", origin: baseUrl, cookie };
  const team = await json(await fetch(`${baseUrl}/api/v1/teams`, { method: "POST", headers, body: JSON.stringify({ slug: `${label}-${randomUUID().slice(0, 6)}`, name: `Team ${label}` }) }), "create team");
  await json(await fetch(`${baseUrl}/api/v1/teams/active`, { method: "POST", headers, body: JSON.stringify({ teamId: team.id }) }), "switch team");
  const key = await json(await fetch(`${baseUrl}/api/v1/keys`, { method: "POST", headers, body: JSON.stringify({ name: `bench ${label}`, role: "admin" }) }), "create key");
  return { id: team.id, key: key.key, cookie };
}

/** `errors5xx`: answers a client retried (up to 5 times, 1 s apart) before the POST went through. */
export type Registration = { mode: "batch" | "single"; ms: number; ids: string[]; postMs: number[]; errors5xx: number };

export async function registerServers(baseUrl: string, team: Team, bodies: Record<string, unknown>[], parallel = 16): Promise<Registration> {
  const headers = { "content-type": "application/json", authorization: `Bearer ${team.key}` };
  const started = performance.now();
  const postMs: number[] = [];
  const ids: string[] = [];
  let errors5xx = 0;
  const first = await fetch(`${baseUrl}/api/v1/servers/batch`, { method: "POST", headers, body: JSON.stringify({ servers: bodies.slice(0, 1000) }) });
  if (first.status !== 404 && first.status !== 405) {
    const chunks = [first];
    for (let i = 1000; i < bodies.length; i += 1000) chunks.push(await fetch(`${baseUrl}/api/v1/servers/batch`, { method: "POST", headers, body: JSON.stringify({ servers: bodies.slice(i, i + 1000) }) }));
    for (const res of chunks) {
      const answer = await json(res, "batch registration");
      const items = (answer.servers ?? answer.items ?? []) as { id?: string; server?: { id: string } }[];
      for (const item of items) ids.push(item.id ?? item.server!.id);
    }
    return { mode: "batch", ms: performance.now() - started, ids, postMs, errors5xx };
  }
  await first.text();
  let next = 0;
  const lane = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const t = performance.now();
      let res = await fetch(`${baseUrl}/api/v1/servers`, { method: "POST", headers, body: JSON.stringify(body) });
      for (let attempt = 1; res.status >= 500 && attempt <= 5; attempt++) {
        errors5xx++;
        await res.text();
        await new Promise((r) => setTimeout(r, 1_000));
        res = await fetch(`${baseUrl}/api/v1/servers`, { method: "POST", headers, body: JSON.stringify(body) });
      }
      const answer = await json(res, `register ${String(body.name)}`);
      postMs.push(performance.now() - t);
      ids.push(answer.server?.id ?? answer.id);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return { mode: "single", ms: performance.now() - started, ids, postMs, errors5xx };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
