import { randomBytes } from "node:crypto";
import { defaultKeyHasher } from "@better-auth/api-key";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "@/lib/auth/hash-api-key";

// Keys already stored were hashed by the better-auth plugin; ours must give the same text.
describe("hashApiKey", () => {
  it("matches SHA-256 base64url (no padding) as computed by openssl", () => {
    // printf %s "$key" | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d '='
    expect(hashApiKey("tw_abc")).toBe("hSh9XKSjuBf-DUIgjb6SX3HK0gQoG9cJwf94yUW_pC4");
    expect(hashApiKey("tw_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e")).toBe("-zeuYHQ4vUdsk8-jk-xB7Z9Z93EOYcugvgKPeCO6cXs");
    expect(hashApiKey("ключ-é")).toBe("HPcSMXpqN6MggoWPXrdC-PRpje4K24JNlgD0XIC-Fns");
  });

  it("gives exactly what the plugin's defaultKeyHasher gives, for keys of every shape", async () => {
    const keys = ["", "tw_", ...Array.from({ length: 200 }, (_, i) => `tw_${randomBytes(1 + (i % 48)).toString(i % 2 ? "base64url" : "hex")}`)];
    for (const key of keys) expect(hashApiKey(key)).toBe(await defaultKeyHasher(key));
  });
});
