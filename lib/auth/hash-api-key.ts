import { createHash } from "node:crypto";

/**
 * The stored form of an API key: SHA-256 of its UTF-8 text, base64url without padding. The same
 * bytes as the better-auth plugin's `defaultKeyHasher` (keys it minted keep verifying; the unit
 * test compares the two and an `openssl` vector), computed synchronously with node:crypto.
 *
 * Why not the plugin's: it goes through WebCrypto's `subtle.digest`, which schedules a threadpool
 * job and a promise per call. Every API request hashes its key before the remembered-key lookup,
 * and in a web-process profile at 50 clients (bench/RESULTS.md, tenth pass) that job was the
 * largest single cost of a request, ~0.09 ms of main-thread CPU; node:crypto hashes 40 bytes in ~1 µs.
 */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("base64url");
}
