import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resolveOAuth, type OAuthValues } from "@/cli/oauth-options";
import { UsageError } from "@/cli/parse-target";
import { resolveTarget, type TargetValues } from "@/cli/target-options";
import { describeError } from "@/lib/discovery/discovery-error";
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { followAuthorizationUrl } from "@/lib/discovery/oauth/node/headless-follower";
import { startLoopbackReceiver, type LoopbackReceiver } from "@/lib/discovery/oauth/node/loopback-receiver";
import { signingAlgorithmOf } from "@/lib/discovery/oauth/node/machine-provider";

const SECRET = "s3cr3t-never-printed";
const base: OAuthValues = { oauth: false, "oauth-headless": false, "oauth-timeout": "300000" };
const values = (v: Partial<OAuthValues>): OAuthValues => ({ ...base, ...v });
const usageOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
};

let dir: string;
let ecKey: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-oauth-"));
  ecKey = path.join(dir, "ec.pem");
  fs.writeFileSync(ecKey, generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }));
  fs.writeFileSync(path.join(dir, "id-token"), "eyJ.id.token\n");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("resolveOAuth() (the CLI's OAuth flags)", () => {
  it("returns nothing when no OAuth flag is given", () => {
    expect(resolveOAuth(base, true)).toBeUndefined();
  });

  it("--oauth is the interactive flow; --oauth-headless the same without a browser", () => {
    expect(resolveOAuth(values({ oauth: true, scope: "read write" }), true)).toEqual({ kind: "interactive", headless: false, scope: "read write", timeoutMs: 300000 });
    expect(resolveOAuth(values({ "oauth-headless": true, "client-id": "pre", "client-secret": SECRET, "client-metadata-url": "https://app.example/client.json" }), true)).toEqual({
      kind: "interactive",
      headless: true,
      clientId: "pre",
      clientSecret: SECRET,
      clientMetadataUrl: "https://app.example/client.json",
      timeoutMs: 300000,
    });
  });

  it("--client-id with --client-secret is client credentials; with --client-key it is private_key_jwt", () => {
    expect(resolveOAuth(values({ "client-id": "m2m", "client-secret": SECRET, scope: "mcp" }), true)).toEqual({ kind: "machine", credentials: { kind: "client_secret", clientId: "m2m", clientSecret: SECRET, scope: "mcp" } });
    const plan = resolveOAuth(values({ "client-id": "m2m", "client-key": ecKey }), true);
    expect(plan).toMatchObject({ kind: "machine", credentials: { kind: "private_key_jwt", clientId: "m2m" } });
    expect(plan?.kind === "machine" && plan.credentials.kind === "private_key_jwt" && plan.credentials.privateKeyPem).toContain("BEGIN PRIVATE KEY");
  });

  it("the --idp-* trio with a client secret is enterprise-managed authorization (ID-JAG)", () => {
    expect(
      resolveOAuth(values({ "client-id": "c", "client-secret": SECRET, "idp-token-endpoint": "https://idp.example/token", "idp-client-id": "idp-c", "id-token-file": path.join(dir, "id-token") }), true),
    ).toEqual({ kind: "machine", credentials: { kind: "id_jag", clientId: "c", clientSecret: SECRET, idpTokenEndpoint: "https://idp.example/token", idpClientId: "idp-c", idToken: "eyJ.id.token" } });
  });

  it.each<[string, Partial<OAuthValues>, boolean, string]>([
    ["stdio servers", { oauth: true }, false, "OAuth options apply to --url servers only"],
    ["a secret without an id", { "client-secret": SECRET }, true, "--client-secret and --client-key need --client-id"],
    ["secret and key together", { "client-id": "c", "client-secret": SECRET, "client-key": "k.pem" }, true, "give --client-secret or --client-key, not both"],
    ["a client id alone", { "client-id": "c" }, true, "--client-id needs --oauth/--oauth-headless (authorization code) or --client-secret/--client-key (client credentials)"],
    ["a key with --oauth", { oauth: true, "client-id": "c", "client-key": "k.pem" }, true, "--client-key is for client credentials; it cannot be combined with --oauth"],
    ["a plain-http metadata document", { oauth: true, "client-metadata-url": "http://app.example/c.json" }, true, "--client-metadata-url must be an https URL with a path"],
    ["half an IdP configuration", { "client-id": "c", "client-secret": SECRET, "idp-client-id": "x" }, true, "enterprise-managed authorization needs --client-id, --client-secret, --idp-token-endpoint, --idp-client-id and --id-token-file"],
    ["a short callback wait", { oauth: true, "oauth-timeout": "5" }, true, "--oauth-timeout takes milliseconds (at least 1000)"],
  ])("refuses %s with a one-line reason that never echoes a secret", (_label, v, isHttp, message) => {
    const text = usageOf(() => resolveOAuth(values(v), isHttp));
    expect(text).toBe(message);
    expect(text).not.toContain(SECRET);
  });

  it("refuses an unreadable or non-key --client-key without printing its contents", () => {
    expect(usageOf(() => resolveOAuth(values({ "client-id": "c", "client-key": path.join(dir, "missing.pem") }), true))).toBe(`--client-key: cannot read ${path.join(dir, "missing.pem")} (ENOENT)`);
    const notKey = path.join(dir, "not-a-key.pem");
    fs.writeFileSync(notKey, SECRET);
    const text = usageOf(() => resolveOAuth(values({ "client-id": "c", "client-key": notKey }), true));
    expect(text).toBe("--client-key: the client key is not a readable PEM private key");
  });

  it("resolveTarget() (shared by snapshot, lock and check) carries the plan", () => {
    const target: TargetValues = { ...base, url: "https://mcp.example/mcp", transport: "auto", era: "auto", timeout: "20000", "max-pages": "10", "block-private": false, "client-id": "c", "client-secret": SECRET };
    expect(resolveTarget(target).oauth).toEqual({ kind: "machine", credentials: { kind: "client_secret", clientId: "c", clientSecret: SECRET } });
  });
});

describe("signingAlgorithmOf() (the private_key_jwt algorithm from the key)", () => {
  it.each<[string, () => string, string]>([
    ["EC P-256", () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }) as string, "ES256"],
    ["EC P-384", () => generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" }) as string, "ES384"],
    ["RSA", () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }) as string, "RS256"],
    ["Ed25519", () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) as string, "EdDSA"],
  ])("%s → %s", (_label, make, alg) => {
    expect(signingAlgorithmOf(make())).toBe(alg);
  });
});

describe("the loopback receiver", () => {
  let receiver: LoopbackReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });
  const call = async (query: string) => {
    const res = await fetch(`${receiver!.redirectUrl}?${query}`);
    return { status: res.status, body: await res.text() };
  };

  it("listens on 127.0.0.1 with a random port and resolves with the callback whose state matches", async () => {
    receiver = await startLoopbackReceiver({ timeoutMs: 5000 });
    expect(receiver.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const waiting = receiver.waitForCallback(() => "state-1");
    expect(await call("code=wrong&state=forged")).toMatchObject({ status: 400 });
    const ok = await call("code=abc&state=state-1&iss=https%3A%2F%2Fas.example");
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("You can close this window");
    const params = await waiting;
    expect([params.get("code"), params.get("iss")]).toEqual(["abc", "https://as.example"]);
  });

  it("rejects a callback that carries an error, without repeating the server's text", async () => {
    receiver = await startLoopbackReceiver({ timeoutMs: 5000 });
    const waiting = receiver.waitForCallback(() => "s");
    const settled = waiting.then(
      () => "resolved",
      (e: Error) => e.message,
    );
    await call("error=access_denied&error_description=%3Cscript%3E&state=s");
    expect(await settled).toBe("the authorization server refused the authorization request");
  });

  it("keeps a callback delivered before anyone waits (the headless follower is fast)", async () => {
    receiver = await startLoopbackReceiver({ timeoutMs: 5000 });
    expect(receiver.deliver(new URL(`${receiver.redirectUrl}?code=early&state=s2`))).toBe(true);
    expect((await receiver.waitForCallback(() => "s2")).get("code")).toBe("early");
  });

  it("gives up after its timeout", async () => {
    receiver = await startLoopbackReceiver({ timeoutMs: 1000 });
    await expect(receiver.waitForCallback(() => "s")).rejects.toThrow("no authorization callback within 1 s");
  });
});

describe("followAuthorizationUrl() (--oauth-headless)", () => {
  let server: Server;
  let origin: string;
  const REDIRECT = "http://127.0.0.1:1/callback";
  beforeAll(async () => {
    // An authorization server that approves at once, through one intermediate hop.
    server = createServer((req, res) => {
      const url = new URL(req.url!, "http://x");
      if (url.pathname === "/authorize") res.writeHead(302, { location: `/consent?state=${url.searchParams.get("state")}` }).end();
      else if (url.pathname === "/consent") res.writeHead(303, { location: `${REDIRECT}?code=c-1&state=${url.searchParams.get("state")}` }).end();
      else res.writeHead(200, { "content-type": "text/html" }).end("<form>log in</form>");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("follows the redirects with the guarded fetch and returns the callback URL without requesting it", async () => {
    const guarded = createGuardedFetch({ blockPrivate: false, maxResponseBytes: 1024 * 1024 });
    try {
      const callback = await followAuthorizationUrl(new URL(`${origin}/authorize?state=xyz`), REDIRECT, guarded);
      expect(callback.href).toBe(`${REDIRECT}?code=c-1&state=xyz`);
    } finally {
      await guarded.close();
    }
  });

  it("stops at a page that needs a person", async () => {
    const guarded = createGuardedFetch({ blockPrivate: false, maxResponseBytes: 1024 * 1024 });
    try {
      await expect(followAuthorizationUrl(new URL(`${origin}/login`), REDIRECT, guarded)).rejects.toThrow(/answered 200 instead of redirecting back/);
    } finally {
      await guarded.close();
    }
  });

  it("is subject to the SSRF guard like every OAuth request", async () => {
    const guarded = createGuardedFetch({ blockPrivate: true, maxResponseBytes: 1024 * 1024 });
    try {
      await expect(followAuthorizationUrl(new URL(`${origin}/authorize?state=xyz`), REDIRECT, guarded)).rejects.toMatchObject({ code: "TARGET_LOOPBACK" });
    } finally {
      await guarded.close();
    }
  });
});

describe("describeError() for OAuth", () => {
  it("turns the SDK's UnauthorizedError into AUTH_REQUIRED (the product's auth_required)", () => {
    expect(describeError(new UnauthorizedError()).code).toBe("AUTH_REQUIRED");
  });
});
