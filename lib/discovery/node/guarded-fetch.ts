/**
 * A fetch for talking to tenant-supplied MCP servers that cannot be aimed at the worker's own
 * network (SSRF) and cannot flood the worker's memory.
 *
 * The address check lives in the undici connector, so it runs on every connection the request
 * makes (redirect hops included) and on the address DNS actually returned for it: a hostname
 * that resolves to a public address when a URL is saved and to 169.254.169.254 later (DNS
 * rebinding) is refused at connect time, before any packet is sent.
 */
import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciRequestInit, type Response as UndiciResponse } from "undici";
import { checkAddress, checkUrl } from "./network-guard";

const MIB = 1024 * 1024;
/** Statuses whose Response must be built with a null body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A destination the network guard refused; `code` is e.g. "TARGET_METADATA", "TARGET_LOOPBACK", "UNSUPPORTED_SCHEME". */
export class NetworkGuardError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "NetworkGuardError";
    this.code = code;
  }
}

export class ResponseTooLargeError extends Error {
  readonly code = "RESPONSE_TOO_LARGE";
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    const mib = Number((limitBytes / MIB).toFixed(2));
    super(`The server's response is larger than the ${mib} MiB limit, so Toolwatch stopped reading it.`);
    this.name = "ResponseTooLargeError";
    this.limitBytes = limitBytes;
  }
}

export type GuardedFetchOptions = {
  /** Refuse private (RFC 1918, CGNAT, ULA) and loopback addresses too. Metadata, link-local etc. are always refused. */
  blockPrivate: boolean;
  /** Why private and loopback addresses are refused (privateTargetsRule), for the error message. */
  privateRule?: string;
  /** Cap on the bytes of one response body (after decompression), except long-lived streams. */
  maxResponseBytes: number;
  /** TCP (+TLS) connect timeout; default 10 s. */
  connectTimeoutMs?: number;
  /** Whether a request opens a long-lived stream that must not be capped; default isLongLivedStream. */
  isStreaming?: (init?: RequestInit) => boolean;
};

/**
 * A fetch; `close()` releases the kept-alive connections when the caller is done with the server.
 * Every outbound request of lib/ and worker/ takes one of these (the global fetch has no close(),
 * so it does not type-check where a GuardedFetch is asked for; eslint.config.js bans it outright).
 */
export type GuardedFetch = typeof fetch & { close(): Promise<void> };

/**
 * The worker's pair: `open` may reach private and loopback addresses, `closed` may not. Which one a
 * request goes through is the team's right (lib/network/private-targets.ts), decided per server or
 * per delivery; metadata, link-local and reserved addresses are refused by both.
 */
export type TargetFetches = { open: GuardedFetch; closed: GuardedFetch; for(privateAllowed: boolean): GuardedFetch; close(): Promise<void> };

export function createTargetFetches(opts: Omit<GuardedFetchOptions, "blockPrivate">): TargetFetches {
  const open = createGuardedFetch({ ...opts, blockPrivate: false });
  const closed = createGuardedFetch({ ...opts, blockPrivate: true });
  return {
    open,
    closed,
    for: (privateAllowed) => (privateAllowed ? open : closed),
    close: async () => {
      await Promise.all([open.close(), closed.close()]);
    },
  };
}

function bodyText(body: RequestInit["body"]): string | undefined {
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  return undefined;
}

/**
 * The MCP requests whose response is a stream meant to stay open: a GET asking for
 * text/event-stream (SSE and the Streamable HTTP notification stream) and a POST of
 * `subscriptions/listen` (alone or in a batch).
 */
export function isLongLivedStream(init?: RequestInit): boolean {
  const method = (init?.method ?? "GET").toUpperCase();
  if (method === "GET") return new Headers(init?.headers).get("accept")?.includes("text/event-stream") ?? false;
  if (method !== "POST") return false;
  const text = bodyText(init?.body);
  if (!text?.includes("subscriptions/listen")) return false; // skip parsing the common case
  try {
    const parsed: unknown = JSON.parse(text);
    const isListen = (m: unknown) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "subscriptions/listen";
    return Array.isArray(parsed) ? parsed.some(isListen) : isListen(parsed);
  } catch {
    return false;
  }
}

/** DNS, then the verdict on every address returned: a name that mixes allowed and refused answers is refused. */
type AddressPolicy = { blockPrivate: boolean; privateRule?: string };

function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      for (const { address } of addresses) {
        const verdict = checkAddress(address, { ...policy, host: hostname });
        if (!verdict.ok) return callback(new NetworkGuardError(verdict.code, verdict.message), "");
      }
      // net.connect asks for all addresses when autoSelectFamily (Node's default) is on.
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} resolved to no address`), { code: "ENOTFOUND" }), "");
      callback(null, first.address, first.family);
    });
  };
}

function guardedConnector(policy: AddressPolicy, timeout: number): buildConnector.connector {
  const base = buildConnector({ timeout, lookup: guardedLookup(policy) });
  return (options, callback) => {
    // net.connect never calls `lookup` for a literal IP, so those are checked here, before a socket exists.
    if (isIP(options.hostname)) {
      const verdict = checkAddress(options.hostname, policy);
      if (!verdict.ok) return callback(new NetworkGuardError(verdict.code, verdict.message), null);
    }
    base(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error(`connect to ${options.hostname} failed`), null);
      // Defence in depth: judge the peer the socket really reached, whatever path led there. Not a
      // substitute for the checks above: a socket to 0.0.0.0 reports its peer as 127.0.0.1.
      const remote = socket.remoteAddress;
      const verdict = remote ? checkAddress(remote, { ...policy, host: options.hostname }) : undefined;
      if (verdict?.ok) return callback(null, socket);
      socket.destroy();
      const error = verdict ? new NetworkGuardError(verdict.code, verdict.message) : Object.assign(new Error(`Connection to ${options.hostname} closed before its address could be checked`), { code: "ECONNRESET" });
      callback(error, null);
    });
  };
}

/** undici reports connect failures as TypeError("fetch failed", { cause }); surface ours as itself. */
function guardErrorIn(error: unknown): NetworkGuardError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof NetworkGuardError) return e;
  }
  return undefined;
}

function countingStream(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      // Erroring here also cancels the source, which makes undici drop the connection.
      if (seen > limit) controller.error(new ResponseTooLargeError(limit));
      else controller.enqueue(chunk);
    },
  });
}

/** Re-wrap undici's Response as a global one (what callers type against), with the body capped. */
function toCappedResponse(res: UndiciResponse, limit: number | undefined): Response {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (limit !== undefined && declared > limit) {
    void res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(limit);
  }
  let body = NULL_BODY_STATUSES.has(res.status) ? null : (res.body as ReadableStream<Uint8Array> | null);
  // A body undici decodes as it arrived (no Content-Encoding) with a declared length within the cap
  // cannot exceed it: HTTP/1.1 framing ends the body at Content-Length (extra bytes are a protocol
  // error that drops the connection). Only bodies that could grow — chunked, or compressed (a small
  // gzip can inflate past any cap) — are counted: the counting stream cost ~0.19 ms of CPU per
  // response, a fifth of a plain JSON request (bench/RESULTS.md, ninth pass).
  const boundedByFraming = Number.isFinite(declared) && (res.headers.get("content-encoding") ?? "identity").toLowerCase() === "identity";
  if (body && limit !== undefined && !boundedByFraming) body = body.pipeThrough(countingStream(limit));
  const wrapped = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers as unknown as HeadersInit });
  // The SDK reads response.url to explain redirects; a constructed Response would report "".
  Object.defineProperties(wrapped, { url: { value: res.url }, redirected: { value: res.redirected } });
  return wrapped;
}

async function splitInput(input: RequestInfo | URL, init?: RequestInit): Promise<{ url: string; init: RequestInit }> {
  if (!(input instanceof Request)) return { url: input instanceof URL ? input.href : input, init: init ?? {} };
  const body = input.body ? await input.arrayBuffer() : undefined;
  return { url: input.url, init: { method: input.method, headers: input.headers, body, signal: input.signal, redirect: input.redirect, ...init } };
}

export function createGuardedFetch(opts: GuardedFetchOptions): GuardedFetch {
  const agent = new Agent({ connect: guardedConnector({ blockPrivate: opts.blockPrivate, privateRule: opts.privateRule }, opts.connectTimeoutMs ?? 10_000) });
  const isStreaming = opts.isStreaming ?? isLongLivedStream;

  const guardedFetch = async (input: RequestInfo | URL, requestInit?: RequestInit): Promise<Response> => {
    const { url, init } = await splitInput(input, requestInit);
    const checked = checkUrl(url);
    if (!checked.ok) throw new NetworkGuardError(checked.code, checked.message);
    let response: UndiciResponse;
    try {
      // undici's own fetch, from the same copy as the Agent: the global fetch is the host's bundled
      // undici, and dispatchers do not work across undici majors (Node versions embedding undici 8).
      response = await undiciFetch(checked.url, { ...(init as UndiciRequestInit), dispatcher: agent });
    } catch (error) {
      throw guardErrorIn(error) ?? error;
    }
    return toCappedResponse(response, isStreaming(init) ? undefined : opts.maxResponseBytes);
  };
  return Object.assign(guardedFetch, { close: () => agent.close() });
}
