import { randomUUID } from "node:crypto";
import { request, type APIRequestContext, type Browser, type BrowserContext } from "playwright-core";

// Accounts, teams and servers made through the product's own HTTP API, as a browser would:
// better-auth's sign-up sets the session cookie in a Playwright request context, which is either
// API-only or the `request` of a browser context (then its pages share the cookie).

export const PASSWORD = "correct horse battery";

export const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@e2e.example`;
export const uniqueSlug = (label: string) => `${label}-${randomUUID().slice(0, 6)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** A cookie jar (a request context) and the site it talks to. */
export type Api = { request: APIRequestContext; baseUrl: string };

/** JSON over HTTP with the jar's session cookie and a same-origin Origin header, as a page sends. */
export async function call(api: Api, method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  for (let attempt = 0; ; attempt++) {
    const res = await api.request.fetch(new URL(path, api.baseUrl).toString(), {
      method,
      headers: { Origin: api.baseUrl, ...headers },
      ...(body === undefined ? {} : { data: body }),
    });
    // better-auth brakes sign-in/sign-up at 3 per 10 s: wait it out rather than fail a test on it.
    if (res.status() === 429 && attempt < 5) {
      const wait = Number(res.headers()["x-retry-after"] ?? 10);
      await new Promise((r) => setTimeout(r, (Number.isFinite(wait) ? wait : 10) * 1000 + 250));
      continue;
    }
    const text = await res.text();
    return { status: res.status(), json: parseJson(text) };
  }
}

function parseJson(text: string): Json {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

export async function ok(api: Api, method: Method, path: string, body?: unknown): Promise<Json> {
  const { status, json } = await call(api, method, path, body);
  if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

export type Account = Api & { email: string; password: string; name: string };

/** Signs up through better-auth (the jar then holds the session cookie). */
export async function signUp(api: Api, label: string, email = uniqueEmail(label)): Promise<Account> {
  const name = `${label[0]!.toUpperCase()}${label.slice(1)} Tester`;
  await ok(api, "POST", "/api/auth/sign-up/email", { email, password: PASSWORD, name });
  return { ...api, email, password: PASSWORD, name };
}

/** A cookie jar of its own, for people who never open a browser in the test. */
export async function apiOnly(baseUrl: string): Promise<Api> {
  return { request: await request.newContext(), baseUrl };
}

/** A fresh browser context (no cookies yet). */
export function newBrowserContext(browser: Browser, baseUrl: string, options: { clipboard?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1366, height: 900 },
    ...(options.clipboard ? { permissions: ["clipboard-read", "clipboard-write"] } : {}),
  });
}

/** A browser context signed up as a new user: its pages and `account` share the session. */
export async function signedUpContext(browser: Browser, baseUrl: string, label: string, email?: string): Promise<{ context: BrowserContext; account: Account }> {
  const context = await newBrowserContext(browser, baseUrl);
  const account = await signUp({ request: context.request, baseUrl }, label, email);
  return { context, account };
}

/** Creates a team: the caller becomes its owner and it becomes the session's active team. */
export async function createTeam(api: Api, label: string, name = `Team ${label}`): Promise<{ id: string; slug: string; name: string }> {
  return ok(api, "POST", "/api/v1/teams", { slug: uniqueSlug(label), name });
}

/** Registers a Streamable HTTP server in the active team (needs server:write). */
export async function addHttpServer(api: Api, name: string, url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const detail = await ok(api, "POST", "/api/v1/servers", { name, transport: "streamable-http", url, ...extra });
  return detail.server.id as string;
}

/** Invites `email` into the active team; the answer carries the link. */
export async function invite(api: Api, email: string, role: string): Promise<{ id: string; url: string }> {
  return ok(api, "POST", "/api/v1/invitations", { email, role });
}

export async function acceptInvitation(api: Api, invitationId: string): Promise<void> {
  await ok(api, "POST", `/api/v1/invitations/${invitationId}/accept`, {});
}
