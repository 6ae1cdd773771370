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
import { Readable } from "node:stream";
import zlib from "node:zlib";
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
  /** false sends every request through undici's fetch (bench/discovery.ts compares the two paths); default true. */
  directRequests?: boolean;
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

/** Request headers as a plain object (the dispatcher API takes no Headers). */
function plainHeaders(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => (out[name] = value));
  return out;
}

/** The bytes of a body held in memory; undefined when there is none, null when it is something else (a stream, a form). */
function memoryBody(body: RequestInit["body"]): string | Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return null;
}

const INFLATE: Record<string, (buf: Buffer, opts: zlib.ZlibOptions) => Buffer> = { gzip: zlib.gunzipSync, "x-gzip": zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync as (buf: Buffer, opts: zlib.ZlibOptions) => Buffer };

/**
 * The Fetch standard's "bad ports" (SMTP, IRC, X11…), which fetch refuses to talk HTTP to so that a
 * request cannot be turned against another protocol; the direct path refuses them the same way.
 */
const BAD_PORTS = new Set([1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);
const badPort = (url: URL) => BAD_PORTS.has(Number(url.port || (url.protocol === "https:" ? 443 : 80)));

/** Headers a redirect to another origin must not carry (as fetch drops them). */
const CROSS_ORIGIN_DROP = ["authorization", "cookie", "proxy-authorization"];
const MAX_REDIRECTS = 20;

/**
 * The common request — a JSON-RPC POST or a GET — through undici's dispatcher API instead of its
 * fetch: no WHATWG Request, no body stream teed for a possible redirect, no response stream to
 * re-wrap. ~0.2–0.5 ms less client CPU per request (bench/RESULTS.md, eleventh pass), and a first
 * listing makes four. Same agent, so the same connect-time address checks on every hop; redirects
 * followed as fetch follows them (each new URL checked, 303 and POST-on-301/302 become GET,
 * credentials dropped across origins, at most 20); the same cap, on the bytes and again after
 * inflating; with redirect "manual" (how the MCP SDK calls it: it follows same-origin redirects
 * itself) the 3xx comes back as it came. An event-stream answer stays a stream (capped as it is
 * read). Only a body that is not in memory (a stream, a form) or redirect "error" returns null,
 * before anything is sent, for the fetch path.
 */
async function directRequest(agent: Agent, first: URL, init: RequestInit, limit: number): Promise<Response | null> {
  let body = memoryBody(init.body);
  // fetch's own refusal ("bad port"), word for word, comes from the fetch path.
  if (body === null || badPort(first)) return null;
  let method = (init.method ?? "GET").toUpperCase();
  const headers = plainHeaders(init.headers);
  const signal = init.signal ?? undefined;
  const follow = (init.redirect ?? "follow") === "follow";
  let url = first;
  for (let hop = 0; ; hop++) {
    let res: Awaited<ReturnType<Agent["request"]>>;
    try {
      res = await agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: method as "GET", headers, body, signal });
    } catch (error) {
      throw failure(error, signal);
    }
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(", ") : v;
    };
    // "manual" (the SDK follows redirects itself, within the origin) hands the 3xx back as it came.
    const location = follow && res.statusCode >= 300 && res.statusCode < 400 ? header("location") : undefined;
    if (location !== undefined) {
      discard(res.body);
      if (hop + 1 > MAX_REDIRECTS) throw Object.assign(new TypeError("fetch failed"), { cause: new Error("redirect count exceeded") });
      const next = checkUrl(new URL(location, url).href);
      if (!next.ok) throw new NetworkGuardError(next.code, next.message);
      const target = new URL(next.url);
      if (badPort(target)) throw Object.assign(new TypeError("fetch failed"), { cause: new TypeError("bad port") });
      if (res.statusCode === 303 ? method !== "HEAD" : (res.statusCode === 301 || res.statusCode === 302) && method === "POST") {
        method = "GET";
        body = undefined;
        for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) delete headers[name];
      }
      if (target.origin !== url.origin) for (const name of CROSS_ORIGIN_DROP) delete headers[name];
      url = target;
      continue;
    }
    const encoding = (header("content-encoding") ?? "identity").trim().toLowerCase();
    const inflate = encoding === "identity" ? undefined : INFLATE[encoding];
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined || (inflate && (name === "content-encoding" || name === "content-length"))) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
    }
    const respond = (content: BodyInit | null) => {
      const wrapped = new Response(NULL_BODY_STATUSES.has(res.statusCode) ? null : content, { status: res.statusCode, statusText: res.statusText, headers: out });
      Object.defineProperties(wrapped, { url: { value: url.href }, redirected: { value: hop > 0 } });
      return wrapped;
    };
    if (Number(header("content-length") ?? NaN) > limit) {
      discard(res.body);
      throw new ResponseTooLargeError(limit);
    }
    // An event stream is read as it comes (the SDK acts on each event), counted against the cap.
    if ((header("content-type") ?? "").includes("text/event-stream")) {
      let stream = Readable.toWeb(res.body) as ReadableStream<Uint8Array>;
      if (inflate) stream = stream.pipeThrough(new DecompressionStream(encoding === "br" ? ("brotli" as CompressionFormat) : encoding === "deflate" ? "deflate" : "gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
      return respond(stream.pipeThrough(countingStream(limit)));
    }
    const chunks: Buffer[] = [];
    let seen = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        seen += chunk.byteLength;
        if (seen > limit) throw new ResponseTooLargeError(limit);
        chunks.push(chunk);
      }
    } catch (error) {
      discard(res.body);
      if (error instanceof ResponseTooLargeError) throw error;
      throw failure(error, signal, "terminated");
    }
    let bytes: Buffer = Buffer.concat(chunks, seen);
    if (inflate) {
      try {
        // A small gzip can inflate past any cap: zlib stops at maxOutputLength.
        bytes = inflate(bytes, { maxOutputLength: limit });
      } catch (error) {
        if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ResponseTooLargeError(limit);
        throw failure(error, signal, "terminated");
      }
    }
    return respond(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>);
  }
}

/** Drops a response body we will not read, closing its connection; its abort error has nowhere to go. */
function discard(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** An error as fetch reports it: the abort's reason, our guard's refusal, or TypeError(message) with the cause. */
function failure(error: unknown, signal: AbortSignal | undefined, message = "fetch failed"): unknown {
  if (signal?.aborted) return signal.reason;
  return guardErrorIn(error) ?? Object.assign(new TypeError(message), { cause: error });
}

export function createGuardedFetch(opts: GuardedFetchOptions): GuardedFetch {
  const agent = new Agent({ connect: guardedConnector({ blockPrivate: opts.blockPrivate, privateRule: opts.privateRule }, opts.connectTimeoutMs ?? 10_000) });
  const isStreaming = opts.isStreaming ?? isLongLivedStream;

  const guardedFetch = async (input: RequestInfo | URL, requestInit?: RequestInit): Promise<Response> => {
    const { url, init } = await splitInput(input, requestInit);
    const checked = checkUrl(url);
    if (!checked.ok) throw new NetworkGuardError(checked.code, checked.message);
    const streaming = isStreaming(init);
    if (opts.directRequests !== false && !streaming && init.redirect !== "error") {
      const direct = await directRequest(agent, new URL(checked.url), init, opts.maxResponseBytes);
      if (direct) return direct;
    }
    let response: UndiciResponse;
    try {
      // undici's own fetch, from the same copy as the Agent: the global fetch is the host's bundled
      // undici, and dispatchers do not work across undici majors (Node versions embedding undici 8).
      response = await undiciFetch(checked.url, { ...(init as UndiciRequestInit), dispatcher: agent });
    } catch (error) {
      throw guardErrorIn(error) ?? error;
    }
    return toCappedResponse(response, streaming ? undefined : opts.maxResponseBytes);
  };
  return Object.assign(guardedFetch, { close: () => agent.close() });
}
