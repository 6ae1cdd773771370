// toolwatch.lock.json: a server's tool list and protocol facts, pinned for CI (`toolwatch lock`,
// `toolwatch check`). Pure: building, writing and reading the file's text, no I/O.
import { z } from "zod";
import type { ToolLike } from "@/lib/diff";
import { canonicalJson, hashTool, hashToolList, HASH_SCHEME } from "@/lib/hash/canonical-hash";

export const LOCKFILE_VERSION = 1;

/**
 * What the server said about itself at the handshake. Only what the server sent: the target's
 * command line, URL, headers and env are not recorded (arguments and query strings can carry
 * secrets, and `check` is always given its target).
 */
export type LockedServer = {
  protocolVersion: string | null;
  /** "legacy" (initialize) or "modern" (server/discover). */
  era: string | null;
  /** The transport the connection ended up on: stdio, streamable_http or sse. */
  transport: string;
  serverInfo: Record<string, unknown> | null;
  capabilities: Record<string, unknown> | null;
  instructions: string | null;
};

export type LockedTool = { name: string; hash: string; definition: ToolLike };

export type Lockfile = {
  lockfileVersion: typeof LOCKFILE_VERSION;
  hashScheme: typeof HASH_SCHEME;
  /** Same value as `toolwatch snapshot`'s content hash of this list. */
  contentHash: string;
  toolCount: number;
  server: LockedServer;
  /** Sorted by name, then hash: the server's order is not part of the lock. */
  tools: LockedTool[];
};

/** A lock file that cannot be used; the message says why in one line. */
export class LockfileError extends Error {
  override name = "LockfileError";
}

const byNameThenHash = (a: LockedTool, b: LockedTool) => cmp(a.name, b.name) || cmp(a.hash, b.hash);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Tools as the lock holds them: hashed and sorted. `check` sorts the live list alike before diffing. */
export function lockTools(tools: readonly ToolLike[]): LockedTool[] {
  return tools.map((definition) => ({ name: definition.name, hash: hashTool(definition), definition })).sort(byNameThenHash);
}

export function buildLockfile(server: LockedServer, tools: readonly ToolLike[]): Lockfile {
  const locked = lockTools(tools);
  return {
    lockfileVersion: LOCKFILE_VERSION,
    hashScheme: HASH_SCHEME,
    contentHash: hashToolList(locked),
    toolCount: locked.length,
    server,
    tools: locked,
  };
}

/** Keys sorted at every depth (RFC 8785 order), so equal content gives equal bytes. */
const canonical = (value: unknown): unknown => JSON.parse(canonicalJson(value));

/**
 * The file's text: deterministic (same server, same bytes) yet line-per-key, so a CI diff of
 * the lock reads like a diff of the tools. Top-level keys keep a fixed, readable order.
 */
export function serializeLockfile(lock: Lockfile): string {
  const ordered = {
    lockfileVersion: lock.lockfileVersion,
    hashScheme: lock.hashScheme,
    contentHash: lock.contentHash,
    toolCount: lock.toolCount,
    server: canonical(lock.server),
    tools: lock.tools.map((t) => ({ name: t.name, hash: t.hash, definition: canonical(t.definition) })),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

const Json = z.record(z.string(), z.unknown());
const LockfileShape = z.object({
  lockfileVersion: z.literal(LOCKFILE_VERSION),
  hashScheme: z.literal(HASH_SCHEME),
  contentHash: z.string(),
  toolCount: z.number().int().nonnegative(),
  server: z.object({
    protocolVersion: z.string().nullable(),
    era: z.string().nullable(),
    transport: z.string(),
    serverInfo: Json.nullable(),
    capabilities: Json.nullable(),
    instructions: z.string().nullable(),
  }),
  tools: z.array(z.object({ name: z.string(), hash: z.string(), definition: z.looseObject({ name: z.string() }) })),
});

const REGENERATE = "run `toolwatch lock` again to regenerate it";

/** Parses and verifies a lock file's text. Throws LockfileError with a one-line reason. */
export function parseLockfile(text: string): Lockfile {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const conflict = /^<{7} /m.test(text) ? " — it holds merge conflict markers; " + REGENERATE : "";
    throw new LockfileError(`not valid JSON (${(error as Error).message})${conflict}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new LockfileError("not a toolwatch lock file (expected a JSON object)");
  const version = (json as Record<string, unknown>).lockfileVersion;
  if (version === undefined) throw new LockfileError('not a toolwatch lock file (no "lockfileVersion")');
  if (version !== LOCKFILE_VERSION) {
    throw new LockfileError(`lockfileVersion ${JSON.stringify(version)} is not supported: this toolwatch reads lockfileVersion ${LOCKFILE_VERSION}`);
  }
  const parsed = LockfileShape.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "") : "(root)";
    throw new LockfileError(`invalid at ${at}: ${issue.message}`);
  }
  const lock = parsed.data as Lockfile;
  lock.tools.forEach((tool, i) => {
    const label = `tools[${i}] (${JSON.stringify(tool.name)})`;
    if (tool.definition.name !== tool.name) throw new LockfileError(`${label}: its definition is named ${JSON.stringify(tool.definition.name)}; ${REGENERATE}`);
    if (hashTool(tool.definition) !== tool.hash) throw new LockfileError(`${label}: the hash does not match the definition (edited by hand?); ${REGENERATE}`);
  });
  if (lock.toolCount !== lock.tools.length) throw new LockfileError(`toolCount is ${lock.toolCount} but the file lists ${lock.tools.length} tools; ${REGENERATE}`);
  if (hashToolList(lock.tools) !== lock.contentHash) throw new LockfileError(`contentHash does not match the listed tools; ${REGENERATE}`);
  return lock;
}
