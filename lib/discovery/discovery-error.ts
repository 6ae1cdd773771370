import { InsufficientScopeError, OAuthClientFlowError, OAuthError, ProtocolError, SdkError, UnauthorizedError } from "@modelcontextprotocol/client";

/** A failure the worker records as the session's last error: a stable code plus a readable line. */
export class DiscoveryError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "DiscoveryError";
    this.code = code;
  }
}

const ERRNO_CODES: Record<string, string> = {
  ECONNREFUSED: "CONNECTION_REFUSED",
  ECONNRESET: "CONNECTION_RESET",
  ENOTFOUND: "DNS_NOT_FOUND",
  EAI_AGAIN: "DNS_TEMPORARY_FAILURE",
  ETIMEDOUT: "NETWORK_TIMEOUT",
  EHOSTUNREACH: "HOST_UNREACHABLE",
  ENETUNREACH: "NETWORK_UNREACHABLE",
  ENOENT: "COMMAND_NOT_FOUND",
  EACCES: "PERMISSION_DENIED",
  UND_ERR_SOCKET: "CONNECTION_CLOSED",
  UND_ERR_CLOSED: "CONNECTION_CLOSED",
  UND_ERR_CONNECT_TIMEOUT: "NETWORK_TIMEOUT",
  UND_ERR_HEADERS_TIMEOUT: "NETWORK_TIMEOUT",
  UND_ERR_BODY_TIMEOUT: "NETWORK_TIMEOUT",
  CERT_HAS_EXPIRED: "TLS_CERT_EXPIRED",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS_SELF_SIGNED",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS_UNVERIFIED",
};

/**
 * The most precise cause: the SDK wraps network failures ("fetch failed", era negotiation
 * failed), so walk `cause` for a refused target, an oversized response or an OS error code.
 */
function rootCause(error: unknown): { code: string; message: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; data?: { cause?: unknown } };
    if (typeof e.code === "string") {
      if (/^TARGET_|^RESPONSE_TOO_LARGE$|^INVALID_URL$|^CREDENTIALS_IN_URL$|^UNSUPPORTED_SCHEME$/.test(e.code)) return { code: e.code, message: String(e.message) };
      if (ERRNO_CODES[e.code]) return { code: ERRNO_CODES[e.code]!, message: String(e.message) };
    }
    if (e.message === "bad port") {
      return { code: "BLOCKED_PORT", message: "fetch refuses this port (one of the ports browsers block, such as 9, 25 or 6000); serve MCP on another port" };
    }
    current = e.cause ?? e.data?.cause;
  }
  return undefined;
}

/** Maps whatever the SDK, the transport or the OS threw to {code, message} for the database. */
export function describeError(error: unknown): { code: string; message: string } {
  const root = error instanceof DiscoveryError ? undefined : rootCause(error);
  if (root) return root;
  if (error instanceof DiscoveryError) return { code: error.code, message: error.message };
  const auth = describeAuthError(error);
  if (auth) return auth;
  if (error instanceof ProtocolError) return { code: `JSONRPC_${error.code}`, message: error.message };
  if (error instanceof SdkError) {
    const status = (error as SdkError & { status?: number }).status;
    return { code: status ? `${error.code}_${status}` : String(error.code), message: error.message };
  }
  if (error instanceof SyntaxError) return { code: "INVALID_JSON", message: `the server answered with something that is not JSON: ${error.message}` };
  if (error instanceof Error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (typeof errno === "string") return { code: errno, message: error.message };
    if (error.message === "Not connected") return { code: "CONNECTION_CLOSED", message: "The server process or connection has gone away" };
    return { code: "ERROR", message: error.message };
  }
  return { code: "ERROR", message: String(error) };
}

/**
 * OAuth failures get stable codes of their own: AUTH_REQUIRED is what the product turns into the
 * auth_required status. Messages come from the SDK and the authorization server (error codes and
 * descriptions), never from tokens.
 */
function describeAuthError(error: unknown): { code: string; message: string } | undefined {
  if (UnauthorizedError.isInstance(error)) return { code: "AUTH_REQUIRED", message: `the server requires OAuth authorization (${error.message})` };
  if (InsufficientScopeError.isInstance(error)) return { code: "AUTH_INSUFFICIENT_SCOPE", message: error.message };
  if (OAuthError.isInstance(error)) return { code: `OAUTH_${String(error.code).toUpperCase()}`, message: error.message };
  if (OAuthClientFlowError.isInstance(error)) return { code: "OAUTH_FLOW_ERROR", message: error.message };
  return undefined;
}

/** An OAuth failure only a person can fix (the SDK wanted to redirect a browser), anywhere in the cause chain. */
export function isAuthRequired(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (UnauthorizedError.isInstance(current)) return true;
    if (current instanceof DiscoveryError) return current.code === "AUTH_REQUIRED" || current.code === "NOT_AUTHORIZED";
    const e = current as { cause?: unknown; data?: { cause?: unknown } };
    current = e.cause ?? e.data?.cause;
  }
  return false;
}
