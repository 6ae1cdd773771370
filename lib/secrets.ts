import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, loadEnv } from "./env";

// Server env and headers hold credentials: AES-256-GCM at rest, key from configuration.
// Format: "v1:<iv b64>:<tag b64>:<ciphertext b64>" so the scheme can change later.
const VERSION = "v1";

export function parseKey(raw: string): Buffer {
  const key = Buffer.from(raw, /^[0-9a-f]{64}$/i.test(raw) ? "hex" : "base64");
  if (key.length !== 32) throw new Error("TOOLWATCH_SECRET_KEY must be 32 bytes (base64 or 64 hex chars)");
  return key;
}

/** Uses the configured key, else a key file in the data dir (created once, mode 0600). */
export function loadOrCreateKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseKey(configured);
  const file = path.join(dataDir, "secret.key");
  if (fs.existsSync(file)) return parseKey(fs.readFileSync(file, "utf8").trim());
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  return key;
}

export function encryptJson(key: Buffer, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

export function decryptJson<T>(key: Buffer, sealed: string): T {
  const [version, iv, tag, body] = sealed.split(":");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Unrecognised secret format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  const plain = Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as T;
}

let cachedKey: Buffer | undefined;

/** The process-wide key: TOOLWATCH_SECRET_KEY, else the data dir's key file. */
export function getSecretKey(): Buffer {
  if (cachedKey) return cachedKey;
  const env = loadEnv();
  cachedKey = loadOrCreateKey(env.TOOLWATCH_SECRET_KEY, dataDir(env));
  return cachedKey;
}
