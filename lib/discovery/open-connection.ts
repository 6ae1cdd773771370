import { Client } from "@modelcontextprotocol/client";
import { z } from "zod";
import type { ServerConnectionConfig } from "../servers/server-config";
import { createTransport } from "./node/create-transport";
import { walkToolPages, type ToolListing } from "./walk-tool-pages";

export const CLIENT_INFO = { name: "toolwatch", version: "0.1.0" };

export type ConnectionFacts = {
  era: string | null;
  protocolVersion: string | null;
  serverInfo: { name?: string; version?: string; title?: string } | null;
  capabilities: Record<string, unknown> | null;
  instructions: string | null;
  /** Whether the server will push tools/list_changed to us on this connection. */
  pushChannel: boolean;
};

export type OpenConnection = {
  facts: ConnectionFacts;
  listTools(): Promise<ToolListing>;
  /** Resolves with a reason once the connection is gone (closed, deaf, or failed). */
  closed: Promise<string>;
  close(): Promise<void>;
};

// Lenient on purpose: the SDK rejects a whole page for one malformed tool; we salvage per item.
const LoosePage = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().nullish(),
  ttlMs: z.number().optional(),
  cacheScope: z.string().optional(),
});

export async function openConnection(
  config: ServerConnectionConfig,
  opts: { connectTimeoutMs: number; requestTimeoutMs: number; maxPages: number; onListChanged: () => void; onLog?: (line: string) => void },
): Promise<OpenConnection> {
  const { transport, stderrTail } = createTransport(config);
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: "auto", probe: { timeoutMs: Math.min(opts.connectTimeoutMs, 10_000) } },
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onListChanged() } },
  });
  let settle!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (settle = resolve));
  client.onclose = () => settle(withStderr("connection closed", stderrTail()));
  client.onerror = (error) => {
    // A Streamable HTTP GET stream that ran out of retries leaves the client connected but deaf.
    if (/Maximum reconnection attempts/i.test(error.message)) settle("notification stream lost: " + error.message);
    else opts.onLog?.(`transport error: ${error.message}`);
  };

  try {
    await client.connect(transport, { timeout: opts.connectTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    const tail = stderrTail();
    if (tail && error instanceof Error) error.message = withStderr(error.message, tail);
    throw error;
  }

  const era = client.getProtocolEra() ?? null;
  const capabilities = (client.getServerCapabilities() as Record<string, unknown> | undefined) ?? null;
  const subscription = client.autoOpenedSubscription;
  const advertised = Boolean((capabilities?.tools as { listChanged?: boolean } | undefined)?.listChanged);
  const pushChannel = era === "modern" ? Boolean(subscription?.honoredFilter.toolsListChanged) : advertised;
  // The SDK never re-listens; a listen stream the server ends means we must reconnect to hear again.
  void subscription?.closed.then((why) => {
    if (why !== "local") settle(`change subscription ended (${why})`);
  });

  const info = client.getServerVersion();
  return {
    facts: {
      era,
      protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
      serverInfo: info ? { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) } : null,
      capabilities,
      instructions: client.getInstructions() ?? null,
      pushChannel,
    },
    listTools: () =>
      walkToolPages(
        (cursor) =>
          client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, LoosePage, {
            timeout: opts.requestTimeoutMs,
          }),
        { maxPages: opts.maxPages },
      ),
    closed,
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
}

function withStderr(message: string, tail: string): string {
  return tail ? `${message}; server stderr: ${tail.split("\n").slice(-5).join(" | ")}` : message;
}
