import type { ClientIdentity } from "./client-identities";
import type { ServerConnectionConfig } from "./connection-config";
import { describeError } from "./discovery-error";
import type { GuardedFetch } from "./node/guarded-fetch";
import { openConnection, type EraVerdict, type Listing } from "./open-connection";

export type ProbeOptions = {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxPages: number;
  /** The same guarded fetch (SSRF guard, size cap) the server's regular session uses. */
  fetch: GuardedFetch;
  maxMessageBytes?: number;
  /** The server's stored era verdict: saves the era probe on every connect. */
  prior?: EraVerdict;
};

export type ProbeListing = { ok: true; listing: Listing } | { ok: false; error: { code: string; message: string } };

/**
 * One-shot listing under another client's identity: connect with its clientInfo (the same
 * config, hence the same credentials, as the regular session), walk every page, close. No
 * subscription, no retry: a failure is an outcome to record, and the next probe tries again.
 */
export async function listToolsAs(config: ServerConnectionConfig, identity: Pick<ClientIdentity, "clientInfo">, opts: ProbeOptions): Promise<ProbeListing> {
  let conn: Awaited<ReturnType<typeof openConnection>> | undefined;
  try {
    conn = await openConnection(config, {
      connectTimeoutMs: opts.connectTimeoutMs,
      requestTimeoutMs: opts.requestTimeoutMs,
      maxPages: opts.maxPages,
      fetch: opts.fetch,
      maxMessageBytes: opts.maxMessageBytes,
      prior: opts.prior,
      clientInfo: identity.clientInfo,
      // A probe never listens: changes are the regular session's business.
      onListChanged: () => undefined,
    });
    return { ok: true, listing: await conn.listTools() };
  } catch (error) {
    const { code, message } = describeError(error);
    return { ok: false, error: { code, message } };
  } finally {
    await conn?.close();
  }
}
