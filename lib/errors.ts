// One error type for the domain; each transport (HTTP, socket, CLI) maps the closed code union.
export type AppErrorCode =
  | "NOT_FOUND"
  | "INVALID_INPUT"
  | "CONFLICT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "RATE_LIMITED"
  | "UNAVAILABLE";

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  NOT_FOUND: 404,
  INVALID_INPUT: 400,
  CONFLICT: 409,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: unknown;
  constructor(code: AppErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }
  get httpStatus(): number {
    return HTTP_STATUS[this.code];
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** A fenced write refused: this worker no longer holds the server's lease (another may own it now). */
export class LeaseLostError extends Error {
  readonly code = "LEASE_LOST";
  constructor(serverId: string) {
    super(`this worker no longer holds the lease for server ${serverId}`);
  }
}
