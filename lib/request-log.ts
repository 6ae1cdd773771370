import { randomUUID } from "node:crypto";

/** A caller's (or proxy's) request id is kept only when it is a short plain token: it goes into logs and a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The x-request-id to use: the incoming one if sane, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

// Path segments that are credentials of a sort (share links, invitation links) are not logged.
const SECRET_SEGMENT = /(\/(?:share|shares|invite|invitations)\/)[^/?#]+/g;

/** The path of a request URL as it may appear in a log line: no query string, no link tokens. */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? "/").split(/[?#]/, 1)[0]!;
  return path.replace(SECRET_SEGMENT, "$1[redacted]");
}
