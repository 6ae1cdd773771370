import type { Db } from "@/lib/db";
import type { Listing } from "@/lib/discovery/open-connection";
import type { ToolListCacheEntry } from "@/lib/generated/prisma/client";
import { hashTool } from "@/lib/snapshots/canonical-hash";

// Rule R31 (detection-rules.md): a list the server marks `public` is, by its own declaration,
// identical for every caller. Two authorization contexts that see different public lists of the
// same endpoint are a protocol violation at best and a targeted rug pull at worst.

/** How long another context's public list counts as "what it sees now" for the comparison. */
export const DIVERGENCE_WINDOW_MS = 86_400_000;

/**
 * What the alert may say. Only this context's tool names appear: the other context may belong to
 * another team, so of its list only counts are told.
 */
export type Divergence = {
  ownContext: string;
  otherContext: "anonymous" | "other credentials";
  ownHash: string;
  otherHash: string;
  ownCount: number;
  otherCount: number;
  /** Our tools the other context does not have at all. */
  onlyHere: string[];
  /** Our tools the other context sees with a different definition. */
  differing: string[];
  /** How many of the other context's tools we do not have. */
  missingHereCount: number;
  otherFetchedAt: string;
};

export async function findDivergence(db: Db, entry: ToolListCacheEntry, listing: Listing): Promise<Divergence | null> {
  const others = await db.toolListCacheEntry.findMany({
    where: {
      endpointKey: entry.endpointKey,
      scope: "public",
      authContext: { not: entry.authContext },
      listHash: { not: entry.listHash },
      invalidatedAt: null,
      fetchedAt: { gt: new Date(entry.fetchedAt.getTime() - DIVERGENCE_WINDOW_MS) },
    },
    orderBy: { fetchedAt: "desc" },
    take: 1,
  });
  const other = others[0];
  if (!other) return null;
  return compareLists(entry, listing, other);
}

function compareLists(entry: ToolListCacheEntry, listing: Listing, other: ToolListCacheEntry): Divergence {
  const theirs = new Map<string, string>();
  for (const tool of (other.listing as unknown as Listing).tools ?? []) theirs.set(tool.name, hashTool(tool));
  const ours = new Map(listing.tools.map((t) => [t.name, hashTool(t)] as const));
  const onlyHere: string[] = [];
  const differing: string[] = [];
  for (const [name, hash] of ours) {
    const seen = theirs.get(name);
    if (seen === undefined) onlyHere.push(name);
    else if (seen !== hash) differing.push(name);
  }
  return {
    ownContext: entry.authContext === "anonymous" ? "anonymous" : "this server's credentials",
    otherContext: other.authContext === "anonymous" ? "anonymous" : "other credentials",
    ownHash: entry.listHash,
    otherHash: other.listHash,
    ownCount: ours.size,
    otherCount: theirs.size,
    onlyHere: onlyHere.slice(0, 50),
    differing: differing.slice(0, 50),
    missingHereCount: [...theirs.keys()].filter((n) => !ours.has(n)).length,
    otherFetchedAt: other.fetchedAt.toISOString(),
  };
}
