import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ServerConnectionConfig } from "../../servers/server-config";

export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type CreatedTransport = {
  transport: Transport;
  /** Last lines the server wrote to stderr (stdio only): the best clue when a process dies. */
  stderrTail(): string;
};

/**
 * Node-only: stdio spawns a process. The SDK gives a child only a minimal default env, so the
 * server's configured env is laid over that default rather than over the worker's own env
 * (which must not leak the worker's secrets into third-party servers).
 */
export function createTransport(config: ServerConnectionConfig): CreatedTransport {
  if (config.transport === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
      maxBufferSize: MAX_MESSAGE_BYTES,
    });
    let tail = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    });
    return { transport, stderrTail: () => tail.trim() };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  if (config.transport === "sse") return { transport: new SSEClientTransport(url, { requestInit }), stderrTail: () => "" };
  return {
    transport: new StreamableHTTPClientTransport(url, {
      requestInit,
      reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 },
    }),
    stderrTail: () => "",
  };
}
