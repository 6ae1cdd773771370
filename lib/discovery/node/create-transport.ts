import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ServerConnectionConfig } from "../../servers/server-config";

export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type HttpKind = "streamable_http" | "sse";

export type CreatedTransport = {
  transport: Transport;
  kind: "stdio" | HttpKind;
  /** Last lines the server wrote to stderr (stdio only): the best clue when a process dies. */
  stderrTail(): string;
};

export type TransportOptions = {
  /** Guarded fetch for HTTP transports (SSRF checks after DNS, response size cap). */
  fetch?: typeof fetch;
  maxMessageBytes?: number;
};

/**
 * Node-only: stdio spawns a process. The SDK gives a child only a minimal default env, so the
 * server's configured env is laid over that default rather than over the worker's own env
 * (which must not leak the worker's secrets into third-party servers).
 */
export function createTransport(config: ServerConnectionConfig, kind: "stdio" | HttpKind, opts: TransportOptions = {}): CreatedTransport {
  if (config.transport === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
      maxBufferSize: opts.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    });
    let tail = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    });
    return { transport, kind: "stdio", stderrTail: () => tail.trim() };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  const fetchOpt = opts.fetch ? { fetch: opts.fetch } : {};
  if (kind === "sse") {
    return { transport: new SSEClientTransport(url, { requestInit, ...fetchOpt }), kind, stderrTail: () => "" };
  }
  return {
    transport: new StreamableHTTPClientTransport(url, {
      requestInit,
      ...fetchOpt,
      reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 },
    }),
    kind: "streamable_http",
    stderrTail: () => "",
  };
}
