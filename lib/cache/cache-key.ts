import { createHmac } from "node:crypto";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";
import { canonicalJson } from "@/lib/snapshots/canonical-hash";

// Which cached tool lists a server may read. An endpoint is what answers tools/list: the URL and
// transport of an HTTP server, the command line and working directory of a stdio one. It is
// stored as a keyed hash because URLs and arguments can carry tokens.

/** The partition of a list any team may read: marked public by the server and fetched without credentials. */
export const PUBLIC_PARTITION = "public";

export function endpointKeyOf(key: Buffer, config: ServerConnectionConfig): string {
  const endpoint =
    config.transport === "stdio"
      ? { transport: "stdio", command: config.command, args: config.args, cwd: config.cwd ?? null }
      : { transport: config.transport, url: normalizeUrl(config.url) };
  return "ep1:" + createHmac("sha256", key).update("endpoint\u0000" + canonicalJson(endpoint)).digest("hex").slice(0, 32);
}

/** Scheme and host are case-insensitive and a default port is the same endpoint; path and query are kept as they are. */
function normalizeUrl(raw: string): string {
  try {
    return new URL(raw).href;
  } catch {
    return raw;
  }
}

/**
 * Where a fetched list is stored: shared only when the server marked it public AND it was
 * fetched anonymously. A public list fetched with credentials stays in the team's partition:
 * the credentials may have shaped it, whatever the server claims (R31 compares those).
 */
export function partitionFor(scope: string | null, authContext: string, tenantId: string): string {
  return scope === "public" && authContext === "anonymous" ? PUBLIC_PARTITION : tenantId;
}

/** The partitions a server may read, best first: the shared one only for anonymous servers. */
export function readablePartitions(authContext: string, tenantId: string): string[] {
  return authContext === "anonymous" ? [PUBLIC_PARTITION, tenantId] : [tenantId];
}
