// The headers every page carries (set by proxy.ts, per request): a nonce-based Content-Security-
// Policy and, when the page is served over https, HSTS. Next reads the nonce from the CSP request
// header and puts it on its own scripts; nothing else may run (no inline script, no eval). The
// static headers every response carries (nosniff, X-Frame-Options, Referrer-Policy) are in
// next.config.js.

export type PagePolicyInput = {
  nonce: string;
  /** The Host the browser used, for the socket's ws:/wss: URL (ignored unless a plain host[:port]). */
  host: string | null;
  https: boolean;
  /** next dev: React's development tooling needs eval. */
  dev: boolean;
};

const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** 128 random bits, base64: unguessable, fresh for every request. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy({ nonce, host, https, dev }: PagePolicyInput): string {
  // socket.io upgrades to a WebSocket on the page's own host ('self' covers ws: only in CSP 3 browsers).
  const sockets = host && PLAIN_HOST.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", `'nonce-${nonce}'`],
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'"],
    ["connect-src", "'self'", ...sockets],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
    ...(https ? [["upgrade-insecure-requests"] as [string]] : []),
  ];
  return directives.map((d) => d.join(" ")).join("; ");
}

/**
 * Whether the browser reached us over https: the request itself, X-Forwarded-Proto from a proxy
 * the operator said to trust (TOOLWATCH_TRUST_PROXY), or an https TOOLWATCH_BASE_URL.
 */
export function servedOverHttps(input: { protocol: string; headers: Headers; trustProxy: boolean; baseUrl: string | undefined }): boolean {
  if (input.protocol === "https:") return true;
  if (input.trustProxy && input.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https") return true;
  return input.baseUrl?.startsWith("https://") ?? false;
}

export function pageSecurityHeaders(input: PagePolicyInput): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(input),
    // Browsers ignore HSTS over http; sending it only under https keeps plain-http LAN installs reachable.
    ...(input.https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
