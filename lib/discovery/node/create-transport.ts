import { SSEClientTransport, StreamableHTTPClientTransport, type OAuthClientProvider, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ServerConnectionConfig } from "@/lib/discovery/connection-config";
import type { GuardedFetch } from "./guarded-fetch";
import { LinearReadBuffer } from "./line-buffer";

export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type HttpKind = "streamable_http" | "sse";

export type CreatedTransport = {
  transport: Transport;
  kind: "stdio" | HttpKind;
  /** Last lines the server wrote to stderr (stdio only): the best clue when a process dies. */
  stderrTail(): string;
  /** Lines on stdout that cannot be JSON-RPC (stdio only); the SDK skips them silently. */
  stdoutNoise(): { lines: number; sample: string };
};

const NO_NOISE = () => ({ lines: 0, sample: "" });

export type TransportOptions = {
  /**
   * Guarded fetch for HTTP transports (SSRF checks after DNS, response size cap). Required, with no
   * fallback to the global fetch: every request to a tenant's server goes through the guard.
   */
  fetch: GuardedFetch;
  maxMessageBytes?: number;
  /**
   * OAuth for HTTP transports (the MCP authorization spec). The SDK runs the whole flow on a 401
   * or a 403 insufficient_scope: discovery, registration, refresh, step-up. Its metadata, token
   * and registration requests go through `fetch` above, so the SSRF guard applies to them too.
   */
  authProvider?: OAuthClientProvider;
  /** Set only by openConnection's 2025-03-26 fallback (isLegacyIssuerMismatch); never by callers. */
  skipIssuerMetadataValidation?: boolean;
};

/** Step-up re-authorizations per request before giving up (the SDK's own default is 1). */
const MAX_STEP_UP_RETRIES = 1;

/**
 * Node-only: stdio spawns a process. The SDK gives a child only a minimal default env, so the
 * server's configured env is laid over that default rather than over the worker's own env
 * (which must not leak the worker's secrets into third-party servers). `streamWanted` is asked when
 * the HTTP transport wants its GET notification stream (skippingUnwantedStreams, below).
 */
export function createTransport(config: ServerConnectionConfig, kind: "stdio" | HttpKind, opts: TransportOptions, streamWanted: () => boolean = () => true): CreatedTransport {
  if (config.transport === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
      maxBufferSize: opts.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    });
    // The SDK's own read buffer is quadratic in a message's size (line-buffer.ts).
    (transport as unknown as { _readBuffer: LinearReadBuffer })._readBuffer = new LinearReadBuffer(opts.maxMessageBytes ?? MAX_MESSAGE_BYTES);
    let tail = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    });
    const noise = { lines: 0, sample: "" };
    // Hook this instance's start (not a subclass: the SDK's sibling era probe needs its exact
    // class) to watch the session process's stdout next to the SDK's own reader.
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      const stdout = (transport as unknown as { _process?: { stdout?: NodeJS.ReadableStream | null } })._process?.stdout;
      if (stdout) watchStdoutNoise(stdout, noise);
    };
    return { transport, kind: "stdio", stderrTail: () => tail.trim(), stdoutNoise: () => noise };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  if (kind === "sse") {
    const auth = opts.authProvider ? { authProvider: opts.authProvider, skipIssuerMetadataValidation: opts.skipIssuerMetadataValidation ?? false } : {};
    return { transport: new SSEClientTransport(url, { requestInit, fetch: opts.fetch, ...auth }), kind, stderrTail: () => "", stdoutNoise: NO_NOISE };
  }
  return {
    transport: new StreamableHTTPClientTransport(url, {
      requestInit,
      fetch: skippingUnwantedStreams(opts.fetch, streamWanted),
      ...(opts.authProvider
        ? {
            authProvider: opts.authProvider,
            skipIssuerMetadataValidation: opts.skipIssuerMetadataValidation ?? false,
            onInsufficientScope: "reauthorize" as const,
            maxStepUpRetries: MAX_STEP_UP_RETRIES,
          }
        : {}),
      reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 },
    }),
    kind: "streamable_http",
    stderrTail: () => "",
    stdoutNoise: NO_NOISE,
  };
}

/**
 * Counts stdout lines whose first non-blank character cannot start a JSON-RPC message. Looks
 * only at line starts, so multi-megabyte messages cost no extra parsing.
 */
function watchStdoutNoise(stdout: NodeJS.ReadableStream, noise: { lines: number; sample: string }): void {
  let atLineStart = true;
  let pending = ""; // leading characters of a line that began with white space
  stdout.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === "\n") {
        atLineStart = true;
        pending = "";
        continue;
      }
      if (!atLineStart) continue;
      if (ch === " " || ch === "\t" || ch === "\r") {
        pending += ch;
        continue;
      }
      atLineStart = false;
      if (ch !== "{" && ch !== "[") {
        noise.lines++;
        if (!noise.sample) noise.sample = (pending + text.slice(i, text.indexOf("\n", i) === -1 ? i + 80 : Math.min(i + 80, text.indexOf("\n", i)))).trim();
      }
    }
  });
}

/**
 * The 2025-era Streamable HTTP transport opens a standalone GET notification stream after every
 * handshake, whatever the server advertised. When `wanted()` says no (the server advertises no
 * listChanged, so nothing we listen for will come and the connection is closed after its
 * listing), that GET is answered here with the 405 a server without a stream gives, which the SDK
 * takes quietly, instead of costing the server and us one request per poll (1,876 in a
 * 2,000-server sweep, bench/RESULTS.md eleventh pass). A GET that resumes a response stream
 * (`Last-Event-ID`) always goes out: it carries an answer we are waiting for.
 */
export function skippingUnwantedStreams(fetch: GuardedFetch, wanted: () => boolean): GuardedFetch {
  const gated = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    if ((init?.method ?? "GET").toUpperCase() === "GET" && !wanted()) {
      const headers = new Headers(init?.headers);
      if (headers.get("accept")?.includes("text/event-stream") && !headers.has("last-event-id")) {
        return new Response(null, { status: 405, statusText: "Method Not Allowed (not opened: the server advertises no listChanged)" });
      }
    }
    return fetch(input, init);
  }) as GuardedFetch;
  gated.close = () => fetch.close();
  return gated;
}
