import { ProtocolError, SdkError } from "@modelcontextprotocol/client";

/** A failure the worker records as the session's last error: a stable code plus a readable line. */
export class DiscoveryError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "DiscoveryError";
    this.code = code;
  }
}

/** Maps whatever the SDK, the transport or the OS threw to {code, message} for the database. */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof DiscoveryError) return { code: error.code, message: error.message };
  if (error instanceof ProtocolError) return { code: `JSONRPC_${error.code}`, message: error.message };
  if (error instanceof SdkError) {
    const status = (error as SdkError & { status?: number }).status;
    return { code: status ? `${error.code}_${status}` : String(error.code), message: error.message };
  }
  if (error instanceof Error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (typeof errno === "string") return { code: errno, message: error.message };
    if (error.message === "Not connected") return { code: "CONNECTION_CLOSED", message: "The server process or connection has gone away" };
    return { code: "ERROR", message: error.message };
  }
  return { code: "ERROR", message: String(error) };
}
