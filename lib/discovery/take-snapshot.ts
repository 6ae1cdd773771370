import type { ServerConnectionConfig } from "./connection-config";
import { hashTool, hashToolList } from "@/lib/hash/canonical-hash";
import { combineContentHash, EMPTY_SURFACE, hashSurface, surfaceItems, type SurfaceListing } from "@/lib/surface/surface";
import { openConnection, type ConnectionFacts, type ConnectOptions, type Listing } from "./open-connection";

export type OneShotSnapshot = {
  contentHash: string;
  facts: ConnectionFacts;
  listing: Listing;
  tools: Array<{ hash: string } & Listing["tools"][number]>;
  /** Prompts, resources and templates (null: not advertised, not asked) and the server's instructions. */
  surface: SurfaceListing;
  takenAt: string;
  durationMs: number;
  /** Only with `callTool`: whether the call returned a result or a tool error. */
  toolCall?: { name: string; isError: boolean };
};

export type OneShotOptions = Omit<ConnectOptions, "onListChanged"> & {
  /** CLI `--call-tool`: call this tool with `{}` after listing (a smoke test; the worker never calls tools). */
  callTool?: string;
};

/** Connect, walk every page, disconnect: the worker's engine without a database (CLI, "test connection"). */
export async function takeSnapshot(config: ServerConnectionConfig, opts: OneShotOptions): Promise<OneShotSnapshot> {
  const started = performance.now();
  const conn = await openConnection(config, { ...opts, onListChanged: () => undefined });
  try {
    const listing = await conn.listTools();
    const snapshot = describeListing(conn.facts, listing, started);
    if (opts.callTool) snapshot.toolCall = { name: opts.callTool, ...(await conn.callTool(opts.callTool)) };
    return snapshot;
  } finally {
    await conn.close();
  }
}

export function describeListing(facts: ConnectionFacts, listing: Listing, started: number): OneShotSnapshot {
  const tools = listing.tools.map((tool) => ({ hash: hashTool(tool), ...tool }));
  const surface = listing.surface ?? EMPTY_SURFACE;
  return {
    // The same content address the worker stores (lib/snapshots/record-snapshot.ts).
    contentHash: combineContentHash(hashToolList(tools.map((t) => ({ name: t.name, hash: t.hash }))), hashSurface(surfaceItems(surface))),
    facts,
    listing,
    tools,
    surface,
    takenAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
  };
}
