import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce, pageSecurityHeaders, servedOverHttps } from "@/lib/security/page-headers";

// The headers every page carries (proxy.ts): a nonce-based CSP and, under https only, HSTS.
// Expected values are written out by hand.

const directives = (csp: string) => Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

describe("contentSecurityPolicy", () => {
  const csp = contentSecurityPolicy({ nonce: "abc123", host: "toolwatch.lan:3000", https: false, dev: false });

  it("is exactly this for a production page over http", () => {
    expect(csp).toBe(
      "default-src 'self'; script-src 'self' 'nonce-abc123' 'strict-dynamic'; style-src 'self' 'nonce-abc123'; img-src 'self' data: blob:; font-src 'self'; " +
        "connect-src 'self' ws://toolwatch.lan:3000 wss://toolwatch.lan:3000; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("allows no inline script or eval in production", () => {
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
  });

  it("adds 'unsafe-eval' in development only (React's dev tooling needs it) and upgrade-insecure-requests under https only", () => {
    expect(directives(contentSecurityPolicy({ nonce: "n", host: null, https: false, dev: true }))["script-src"]).toEqual(["'self'", "'nonce-n'", "'strict-dynamic'", "'unsafe-eval'"]);
    expect(directives(contentSecurityPolicy({ nonce: "n", host: null, https: true, dev: false }))).toHaveProperty("upgrade-insecure-requests");
    expect(directives(csp)).not.toHaveProperty("upgrade-insecure-requests");
  });

  it("never copies a hostile Host header into the policy", () => {
    for (const host of ["evil.test; script-src *", "a b", "x'y", "evil.test\r\nSet-Cookie: a=b", ""]) {
      expect(directives(contentSecurityPolicy({ nonce: "n", host, https: false, dev: false }))["connect-src"]).toEqual(["'self'"]);
    }
  });
});

describe("newNonce", () => {
  it("is 128 random bits in base64, fresh every time", () => {
    const seen = new Set(Array.from({ length: 100 }, () => newNonce()));
    expect(seen.size).toBe(100);
    for (const n of seen) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("servedOverHttps and HSTS", () => {
  const headers = (proto?: string) => new Headers(proto ? { "x-forwarded-proto": proto } : {});

  it("trusts X-Forwarded-Proto only behind a trusted proxy (TOOLWATCH_TRUST_PROXY)", () => {
    expect(servedOverHttps({ protocol: "http:", headers: headers("https"), trustProxy: false, baseUrl: undefined })).toBe(false);
    expect(servedOverHttps({ protocol: "http:", headers: headers("https"), trustProxy: true, baseUrl: undefined })).toBe(true);
    expect(servedOverHttps({ protocol: "http:", headers: headers("http"), trustProxy: true, baseUrl: undefined })).toBe(false);
  });

  it("is https when the request is, or when TOOLWATCH_BASE_URL says so", () => {
    expect(servedOverHttps({ protocol: "https:", headers: headers(), trustProxy: false, baseUrl: undefined })).toBe(true);
    expect(servedOverHttps({ protocol: "http:", headers: headers(), trustProxy: false, baseUrl: "https://toolwatch.example.com" })).toBe(true);
    expect(servedOverHttps({ protocol: "http:", headers: headers(), trustProxy: false, baseUrl: "http://toolwatch.lan:3000" })).toBe(false);
  });

  it("sends HSTS only under https", () => {
    expect(pageSecurityHeaders({ nonce: "n", host: "h", https: true, dev: false })["Strict-Transport-Security"]).toBe("max-age=31536000; includeSubDomains");
    expect(pageSecurityHeaders({ nonce: "n", host: "h", https: false, dev: false })).not.toHaveProperty("Strict-Transport-Security");
  });
});
