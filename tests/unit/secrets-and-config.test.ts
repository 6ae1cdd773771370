import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { backoffDelayMs, jitter } from "@/lib/discovery/backoff";
import { decryptJson, encryptJson, parseKey } from "@/lib/secrets";
import { computeConfigHash } from "@/lib/servers/server-config";

describe("secrets at rest", () => {
  const key = randomBytes(32);
  it("encryptJson() round-trips and never contains the plaintext", () => {
    const sealed = encryptJson(key, { API_TOKEN: "sk-live-123" });
    expect(sealed).not.toContain("sk-live-123");
    expect(decryptJson(key, sealed)).toEqual({ API_TOKEN: "sk-live-123" });
  });
  it("decryptJson() fails with another key (GCM authentication)", () => {
    expect(() => decryptJson(randomBytes(32), encryptJson(key, { a: "b" }))).toThrow();
  });
  it("parseKey() accepts base64 and hex 32-byte keys and rejects others", () => {
    expect(parseKey(key.toString("base64"))).toEqual(key);
    expect(parseKey(key.toString("hex"))).toEqual(key);
    expect(() => parseKey("short")).toThrow(/32 bytes/);
  });
  it("computeConfigHash() changes when a secret rotates but does not reveal it", () => {
    const a = computeConfigHash(key, { transport: "streamable_http", url: "https://x.test/mcp", headers: { Authorization: "Bearer 1" } });
    const b = computeConfigHash(key, { transport: "streamable_http", url: "https://x.test/mcp", headers: { Authorization: "Bearer 2" } });
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("backoff", () => {
  it("grows exponentially up to the cap, with jitter in the upper half", () => {
    expect(backoffDelayMs(1, { maxMs: 60_000, random: () => 0 })).toBe(500);
    expect(backoffDelayMs(3, { maxMs: 60_000, random: () => 1 })).toBe(4_000);
    expect(backoffDelayMs(30, { maxMs: 60_000, random: () => 1 })).toBe(60_000);
  });
  it("jitter() stays within ±10 %", () => {
    expect(jitter(10_000, 0.1, () => 0)).toBe(9_000);
    expect(jitter(10_000, 0.1, () => 1)).toBe(11_000);
  });
});

describe("secretRedactor()", () => {
  it("removes env and header values (and bare bearer tokens) from text", async () => {
    const { secretRedactor } = await import("@/lib/servers/redact-secrets");
    const stdio = secretRedactor({ transport: "stdio", command: "x", args: [], env: { API_KEY: "sk-live-abcdef", DEBUG: "1" } });
    expect(stdio("auth failed for sk-live-abcdef (DEBUG=1)")).toBe("auth failed for [redacted API_KEY] (DEBUG=1)");
    const http = secretRedactor({ transport: "streamable_http", url: "https://x.test/mcp", headers: { Authorization: "Bearer tok_123456" } });
    expect(http("401: token tok_123456 expired")).toBe("401: token [redacted Authorization] expired");
  });
});
