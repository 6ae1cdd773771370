import { Client, SdkError, type Transport } from "@modelcontextprotocol/client";
import { z } from "zod";
import type { ServerConnectionConfig } from "./connection-config";
import { DiscoveryError, isAuthRequired } from "./discovery-error";
import { completeAuthorization, isAuthorizationRequired, isLegacyIssuerMismatch } from "./oauth/authorization";
import { instrumentTransport, type WireCapture } from "./instrument-transport";
import { createTransport, type HttpKind, type TransportOptions } from "./node/create-transport";
import { listSurface } from "./list-surface";
import type { SurfaceListing } from "@/lib/surface/surface-keys";
import { walkToolPages, type RawPage, type RawToolPage, type ToolListing } from "./walk-tool-pages";

export const CLIENT_INFO = { name: "toolwatch", version: "0.1.0" };

export type EraMode = "auto" | "legacy" | "modern";
/** A stored era verdict, handed back to the SDK as `prior` so a reconnect needs no probe. */
export type EraVerdict = { kind: "legacy" } | { kind: "modern"; discover: Record<string, unknown> };

export type ConnectionFacts = {
  era: string | null;
  protocolVersion: string | null;
  serverInfo: { name?: string; version?: string; title?: string } | null;
  capabilities: Record<string, unknown> | null;
  instructions: string | null;
  transportUsed: "stdio" | HttpKind;
  verdict: EraVerdict;
  /** Whether the server will push list_changed (tools, prompts or resources) to us on this connection. */
  pushChannel: boolean;
};

/**
 * One listing: the tools, and (never served from cache entries stored before surfaces were tracked) the
 * prompts, resources, templates and instructions. ttlMs / cacheScope fold every list's pages.
 */
export type Listing = ToolListing & { warnings: string[]; surface: SurfaceListing };

export type OpenConnection = {
  facts: ConnectionFacts;
  /** Every page, complete or an error; restarts if a list_changed lands mid-walk. */
  listTools(): Promise<Listing>;
  /** Calls one tool with `{}` arguments (CLI `--call-tool` only; the worker never calls tools). */
  callTool(name: string): Promise<{ isError: boolean }>;
  /** Modern era: open a new listen stream after the previous one ended. */
  relisten(): Promise<void>;
  /** Resolves with a reason once the connection is gone (closed, deaf, or failed). */
  closed: Promise<string>;
  close(): Promise<void>;
};

export type ConnectOptions = TransportOptions & {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxPages: number;
  era?: EraMode;
  prior?: EraVerdict;
  /** Streamable HTTP that is refused falls back to legacy HTTP+SSE (default true). */
  fallbackToSse?: boolean;
  onListChanged: () => void;
  /** The modern listen stream ended (why: "graceful" | "remote"); the connection itself may live on. */
  onSubscriptionEnded?: (why: string) => void;
  /** Notifications can no longer arrive (e.g. the legacy GET stream was refused or exhausted). */
  onChannelLost?: (why: string) => void;
  onLog?: (line: string) => void;
  /** Who we say we are (initialize / modern `_meta`); identity probes pose as other clients. Default CLIENT_INFO. */
  clientInfo?: { name: string; version: string };
  /**
   * Interactive OAuth only (the CLI): called after the SDK sent the user agent to the authorization
   * endpoint (`authProvider.redirectToAuthorization`) and stopped with UnauthorizedError; resolves
   * with the callback's query (code, state, iss), which is redeemed with the transport's
   * `finishAuth` before the connect or request is retried. Without it (the worker) that
   * UnauthorizedError surfaces as DiscoveryError AUTH_REQUIRED.
   */
  awaitAuthorizationCallback?: () => Promise<URLSearchParams>;
  /**
   * Authorization callbacks one openConnection redeems, step-ups included (default 2: the first
   * authorization and one step-up), so at most 3 authorization requests are ever made.
   */
  maxAuthorizations?: number;
};

const MAX_AUTHORIZATIONS = 2;

/** Counts the interactive authorizations of one openConnection across reconnects. */
type AuthBudget = { used: number };

// Lenient on purpose: the SDK would reject a whole page for one malformed tool; we salvage per item.
const LoosePage = z.looseObject({ tools: z.array(z.unknown()) });
const LooseListPage = z.looseObject({});

/**
 * Connects with the right transport and era. Streamable HTTP that is refused (404/405/400
 * without a JSON-RPC body) falls back to legacy HTTP+SSE with a fresh client; a stored era
 * verdict is reused, and dropped for a fresh probe when it no longer holds.
 */
export async function openConnection(config: ServerConnectionConfig, opts: ConnectOptions): Promise<OpenConnection> {
  const kinds: Array<"stdio" | HttpKind> =
    config.transport === "streamable_http" ? (opts.fallbackToSse === false ? ["streamable_http"] : ["streamable_http", "sse"]) : [config.transport];
  let firstError: unknown;
  const budget: AuthBudget = { used: 0 };
  for (const kind of kinds) {
    try {
      return await connectWithPrior(config, kind, opts, budget);
    } catch (error) {
      firstError ??= error;
      if (kind === "streamable_http" && refusedByStreamableHttp(error)) {
        opts.onLog?.(`Streamable HTTP refused (${(error as Error).message}); trying legacy HTTP+SSE`);
        continue;
      }
      throw error === firstError ? error : withNote(firstError, `HTTP+SSE fallback also failed: ${(error as Error).message}`);
    }
  }
  throw firstError;
}

async function connectWithPrior(config: ServerConnectionConfig, kind: "stdio" | HttpKind, opts: ConnectOptions, budget: AuthBudget): Promise<OpenConnection> {
  if (!opts.prior || opts.era === "legacy" || opts.era === "modern") return connectOnce(config, kind, opts, undefined, budget);
  try {
    return await connectOnce(config, kind, opts, opts.prior, budget);
  } catch (error) {
    if (isOutage(error)) throw error;
    // The stored verdict no longer holds (server upgraded or downgraded): probe again.
    opts.onLog?.(`stored ${opts.prior.kind} era verdict failed (${(error as Error).message}); probing again`);
    return connectOnce(config, kind, opts, undefined, budget);
  }
}

/**
 * Runs `attempt`; when the SDK stopped at the authorization redirect and the caller can wait for
 * the callback (CLI), redeems the code on `transport` and runs `attempt` again, within the budget.
 */
async function withAuthorization<T>(transport: Transport, opts: ConnectOptions, budget: AuthBudget, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      const wait = opts.awaitAuthorizationCallback;
      if (!wait || !isAuthorizationRequired(error) || budget.used >= (opts.maxAuthorizations ?? MAX_AUTHORIZATIONS)) throw error;
      budget.used++;
      await completeAuthorization(transport, await wait());
    }
  }
}

async function connectOnce(config: ServerConnectionConfig, kind: "stdio" | HttpKind, opts: ConnectOptions, prior: EraVerdict | undefined, budget: AuthBudget): Promise<OpenConnection> {
  // Set once the client exists: a GET notification stream is worth opening only to a server that
  // advertises a listChanged we follow (the SDK would open one regardless).
  let streamWanted = () => true;
  const { transport, stderrTail, stdoutNoise } = createTransport(config, kind, opts, () => streamWanted());
  const capture = instrumentTransport(transport);
  const era = opts.era ?? "auto";
  const client = new Client(opts.clientInfo ?? CLIENT_INFO, {
    versionNegotiation:
      era === "legacy"
        ? { mode: "legacy" }
        : era === "modern"
          ? { mode: { pin: "2026-07-28" } }
          : { mode: "auto", probe: { timeoutMs: Math.min(opts.connectTimeoutMs, 10_000) } },
    // Prompts and resources too: the SDK arms each only when the server advertises its listChanged.
    listChanged: {
      tools: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onListChanged() },
      prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onListChanged() },
      resources: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onListChanged() },
    },
  });
  streamWanted = () => advertisesListChanged(client.getServerCapabilities() as Record<string, unknown> | undefined);
  let settle!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (settle = resolve));
  // Transport faults explain what would otherwise look like a bare timeout or close: a stdio
  // server printing non-JSON to stdout, or one message over the size cap.
  const faults: Fault = { current: undefined };
  client.onclose = () => settle(faults.current?.message ?? withStderr("connection closed", stderrTail()));
  client.onerror = (error) => {
    const message = error.message;
    if (/ReadBuffer exceeded maximum size/i.test(message)) {
      faults.current = { code: "RESPONSE_TOO_LARGE", message: `a message from the server exceeded the ${mib(opts.maxMessageBytes)} limit; the connection was closed` };
    } else if (kind === "stdio" && (error instanceof SyntaxError || error.name === "ZodError" || /JSON/i.test(message))) {
      faults.current = { code: "INVALID_OUTPUT", message: `the server wrote something other than JSON-RPC to stdout (${message.slice(0, 120)})` };
    } else if (/Maximum reconnection attempts/i.test(message)) settle(`notification stream lost: ${message}`);
    else if (/Failed to open SSE stream|405/i.test(message)) opts.onChannelLost?.(`server offers no notification stream (${message})`);
    else opts.onLog?.(`transport error: ${message}`);
  };

  try {
    await client.connect(transport, { timeout: opts.connectTimeoutMs, ...(prior ? { prior: prior as never } : {}) });
  } catch (error) {
    await client.close().catch(() => undefined);
    // Interactive OAuth: redeem the code (tokens land in the provider), then a fresh client connects.
    if (opts.awaitAuthorizationCallback && isAuthorizationRequired(error) && budget.used < (opts.maxAuthorizations ?? MAX_AUTHORIZATIONS)) {
      budget.used++;
      await completeAuthorization(transport, await opts.awaitAuthorizationCallback());
      return connectOnce(config, kind, opts, prior, budget);
    }
    if (opts.authProvider && !opts.skipIssuerMetadataValidation && config.transport !== "stdio" && (await isLegacyIssuerMismatch(error, config.url, opts.fetch))) {
      opts.onLog?.("2025-03-26 server without protected-resource metadata: accepting its authorization server metadata despite the issuer mismatch");
      return connectOnce(config, kind, { ...opts, skipIssuerMetadataValidation: true }, prior, budget);
    }
    if (faults.current) throw new DiscoveryError(faults.current.code, withStderr(faults.current.message, stderrTail()));
    throw connectError(error, opts.connectTimeoutMs, stderrTail());
  }

  const negotiatedEra = client.getProtocolEra() ?? "legacy";
  const capabilities = (client.getServerCapabilities() as Record<string, unknown> | undefined) ?? null;
  const pushes = (key: string) => listChangedOf(capabilities, key);
  const advertised = advertisesListChanged(capabilities);
  const filter = { toolsListChanged: pushes("tools"), ...(pushes("prompts") ? { promptsListChanged: true } : {}), ...(pushes("resources") ? { resourcesListChanged: true } : {}) };
  const honoured = (f: { toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean } | undefined) =>
    Boolean(f?.toolsListChanged || f?.promptsListChanged || f?.resourcesListChanged);
  const watch = (subscription: typeof client.autoOpenedSubscription) => {
    void subscription?.closed.then((why) => {
      if (why !== "local") opts.onSubscriptionEnded?.(why);
    });
  };
  // The SDK opens the listen stream itself only after a probe; when it adopted a stored verdict
  // (`prior`) it does not, and the server would go quiet. Open it ourselves in that case.
  let subscription = client.autoOpenedSubscription;
  if (negotiatedEra === "modern" && !subscription && advertised) {
    try {
      subscription = await client.listen(filter, { timeout: opts.requestTimeoutMs });
    } catch (error) {
      opts.onLog?.(`could not open a listen stream (${(error as Error).message}); falling back to polling`);
    }
  }
  watch(subscription);
  const info = client.getServerVersion();
  const discover = client.getDiscoverResult?.() as Record<string, unknown> | undefined;

  return {
    facts: {
      era: negotiatedEra,
      protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
      serverInfo: info ? { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) } : null,
      capabilities,
      instructions: client.getInstructions() ?? null,
      transportUsed: kind,
      verdict: negotiatedEra === "modern" && discover ? { kind: "modern", discover } : { kind: "legacy" },
      pushChannel: negotiatedEra === "modern" ? honoured(subscription?.honoredFilter) : advertised,
    },
    listTools: () => listEverything(client, capture, negotiatedEra, opts, { faults, stdoutNoise, stderrTail }, (run) => withAuthorization(transport, opts, budget, run)),
    callTool: async (name) => {
      const result = await withAuthorization(transport, opts, budget, () => client.callTool({ name, arguments: {} }, { timeout: opts.requestTimeoutMs }));
      return { isError: Boolean((result as { isError?: boolean }).isError) };
    },
    relisten: async () => {
      const subscription = await client.listen(filter, { timeout: opts.requestTimeoutMs });
      if (!honoured(subscription.honoredFilter)) throw new DiscoveryError("LISTEN_REFUSED", "the server no longer honours any list_changed filter");
      watch(subscription);
    },
    closed,
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
}

const listChangedOf = (capabilities: Record<string, unknown> | null | undefined, key: string) =>
  Boolean((capabilities?.[key] as { listChanged?: boolean } | undefined)?.listChanged);
/** Whether the server says it will push a list_changed we follow (tools, prompts or resources). */
const advertisesListChanged = (capabilities: Record<string, unknown> | null | undefined) =>
  listChangedOf(capabilities, "tools") || listChangedOf(capabilities, "prompts") || listChangedOf(capabilities, "resources");

type Fault = { current: { code: string; message: string } | undefined };
const currentFault = (faults: Fault) => faults.current;

type Diag = { faults: Fault; stdoutNoise: () => { lines: number; sample: string }; stderrTail: () => string };
/** Runs a request, redeeming an OAuth authorization (or step-up) and retrying when the server asks for one. */
type Authorized = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * Tools, then (only where advertised) prompts, resources and templates, and the instructions the
 * handshake carried. One listing, one snapshot: the cache hints fold across every list.
 */
async function listEverything(client: Client, capture: WireCapture, era: string, opts: ConnectOptions, diag: Diag, authorized: Authorized): Promise<Listing> {
  const tools = await listAllTools(client, capture, era, opts, diag, authorized);
  const capabilities = (client.getServerCapabilities() as Record<string, unknown> | undefined) ?? null;
  const fetchPage = async (method: string, cursor: string | undefined): Promise<RawPage> => {
    const params = cursor === undefined ? {} : { cursor };
    try {
      return (await authorized(() => client.request({ method, params } as never, LooseListPage, { timeout: opts.requestTimeoutMs }))) as RawPage;
    } catch (error) {
      const raw = capture.lastListResult.get(method);
      // The SDK rejects a whole non-conforming page (e.g. a 2026 result without ttlMs): salvage the raw wire, as for tools.
      if (error instanceof SdkError && error.code === "INVALID_RESULT" && raw) {
        tools.warnings.push(`the SDK rejected a ${method} page (${error.message.slice(0, 200)}); salvaged from the raw result`);
        return raw as RawPage;
      }
      if (error instanceof SdkError && error.code === "REQUEST_TIMEOUT") throw new DiscoveryError("LIST_TIMEOUT", `no answer to ${method} within ${opts.requestTimeoutMs} ms`);
      throw error;
    }
  };
  const walked = await listSurface(capabilities, client.getInstructions() ?? null, fetchPage, { maxPages: opts.maxPages, changeCount: () => capture.listChangedSeen });
  const ttls = [tools.ttlMs, walked.ttlMs].filter((t): t is number => t !== null);
  const cacheScope = tools.cacheScope === "private" || walked.cacheScope === "private" ? "private" : (tools.cacheScope ?? walked.cacheScope);
  return {
    ...tools,
    ttlMs: ttls.length ? Math.min(...ttls) : null,
    cacheScope,
    warnings: [...tools.warnings, ...walked.warnings],
    surface: walked.surface,
  };
}

async function listAllTools(
  client: Client,
  capture: WireCapture,
  era: string,
  opts: ConnectOptions,
  diag: Diag,
  authorized: Authorized,
): Promise<Omit<Listing, "surface">> {
  const { faults, stdoutNoise } = diag;
  const warnings = new Set<string>();
  let page = 0;
  const fetchPage = async (cursor: string | undefined): Promise<RawToolPage> => {
    const params = cursor === undefined ? {} : { cursor };
    page = cursor === undefined ? 1 : page + 1;
    faults.current = undefined;
    const noiseBefore = stdoutNoise().lines;
    let result: Record<string, unknown>;
    try {
      const decoded = await authorized(() => client.request({ method: "tools/list", params }, LoosePage, { timeout: opts.requestTimeoutMs }));
      result = capture.lastToolsListResult ?? decoded;
    } catch (error) {
      // Read through a call: the fault is set by a callback while the request was in flight.
      const fault = currentFault(faults);
      if (fault) throw new DiscoveryError(fault.code, fault.message);
      if (error instanceof SdkError && error.code === "REQUEST_TIMEOUT") {
        const noise = stdoutNoise();
        if (noise.lines > noiseBefore) {
          throw new DiscoveryError("INVALID_OUTPUT", `no valid answer to tools/list (page ${page}); the server wrote ${noise.lines} line(s) of non-JSON-RPC output to stdout, e.g. ${JSON.stringify(noise.sample)}`);
        }
        throw new DiscoveryError("LIST_TIMEOUT", `no answer to tools/list (page ${page}) within ${opts.requestTimeoutMs} ms`);
      }
      if ((error instanceof SdkError && error.code === "CONNECTION_CLOSED") || (error as Error)?.message === "Not connected") {
        throw new DiscoveryError("CONNECTION_CLOSED", withStderr(`the server closed the connection during tools/list (page ${page})`, diag.stderrTail()));
      }
      // The SDK validates the whole result before our lenient schema: fall back to the raw wire.
      if (!(error instanceof SdkError && error.code === "INVALID_RESULT" && capture.lastToolsListResult)) throw error;
      result = capture.lastToolsListResult;
      warnings.add(`the SDK rejected a tools/list page (${error.message.slice(0, 200)}); salvaged from the raw result`);
    }
    if (era === "modern") {
      const missing = ["resultType", "ttlMs", "cacheScope"].filter((f) => result[f] === undefined);
      if (missing.length) warnings.add(`NON_CONFORMING: 2026-07-28 tools/list result lacks ${missing.join(", ")}`);
    }
    return result as RawToolPage;
  };
  const listing = await walkToolPages(fetchPage, { maxPages: opts.maxPages, changeCount: () => capture.listChangedSeen });
  for (const d of listing.dropped) warnings.add(`dropped item ${d.index} of page ${d.page}: ${d.reason}`);
  if (listing.duplicateNames.length) warnings.add(`DUPLICATE_NAMES: ${listing.duplicateNames.join(", ")}`);
  return { ...listing, warnings: [...warnings] };
}

function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; data?: { status?: unknown } };
  const status = e?.status ?? e?.data?.status;
  return typeof status === "number" ? status : undefined;
}

/** A Streamable HTTP endpoint that is not one (old HTTP+SSE servers answer POST with 404/405/400). */
function refusedByStreamableHttp(error: unknown): boolean {
  const status = statusOf(error);
  return status === 400 || status === 404 || status === 405;
}

/** Failures no era verdict explains: the server is simply not there (or too slow). */
function isOutage(error: unknown): boolean {
  if (isAuthorizationRequired(error)) return true; // no era verdict explains a missing authorization either
  if (error instanceof DiscoveryError) return error.code === "CONNECT_TIMEOUT";
  // No era explains a refused sign-in: probing again would only ask the person-less SDK again.
  if (isAuthRequired(error)) return true;
  const errno = (error as NodeJS.ErrnoException)?.code;
  return errno === "ECONNREFUSED" || errno === "ENOENT" || errno === "EACCES" || (statusOf(error) ?? 0) >= 500;
}

function connectError(error: unknown, timeoutMs: number, stderr: string): unknown {
  if (error instanceof SdkError && error.code === "REQUEST_TIMEOUT") {
    return new DiscoveryError("CONNECT_TIMEOUT", withStderr(`no answer to the handshake within ${timeoutMs} ms`, stderr));
  }
  if (error instanceof Error && stderr) return withNote(error, `server stderr: ${lastLines(stderr)}`);
  return error;
}

function withNote(error: unknown, note: string): unknown {
  if (error instanceof Error) error.message = `${error.message}; ${note}`;
  return error;
}

const mib = (bytes = 16 * 1024 * 1024) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
const lastLines = (text: string) => text.split("\n").slice(-5).join(" | ");
const withStderr = (message: string, tail: string) => (tail ? `${message}; server stderr: ${lastLines(tail)}` : message);
