import pg from "pg";
import { forgetApiKeys, setApiKeyFeed, type KeyFeed } from "./api-key-cache";

// The web process's LISTEN connection for API key changes (see ./api-key-cache.ts for why it is
// what lets keys be cached at all). One per web process; reconnects with a capped delay, and the
// cache is off while it is not listening.
export const API_KEY_CHANNEL = "toolwatch_api_keys";

/** A barrier waits this long at most; then the request reads the database and the feed reconnects. */
const BARRIER_TIMEOUT_MS = 2_000;

export type ApiKeyFeed = { close(): Promise<void> };

export function startApiKeyFeed(url: string, log: (line: string) => void = () => undefined): ApiKeyFeed {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, query_timeout: BARRIER_TIMEOUT_MS });
    client = c;
    c.on("notification", (msg) => {
      if (msg.channel === API_KEY_CHANNEL) forgetApiKeys();
    });
    c.on("error", (error) => {
      log(`API key feed error: ${error.message}`);
      lost(c);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${API_KEY_CHANNEL}`);
      if (client !== c || closed) return;
      attempt = 0;
      setApiKeyFeed(barrierOn(c, () => lost(c)));
    } catch (error) {
      log(`API key feed could not connect: ${(error as Error).message}`);
      lost(c);
    }
  };

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    setApiKeyFeed(null);
    client = undefined;
    void c.end().catch(() => undefined);
    if (closed || retry) return;
    attempt++;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, Math.min(10_000, 250 * 2 ** attempt));
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      setApiKeyFeed(null);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * Round trips on the LISTEN connection, shared: a caller joins the one in flight only if none
 * was (it must start after the caller arrived), else the next one, which every caller that
 * arrived meanwhile shares. Postgres sends the notifications it holds for this connection
 * before a query's result, and pg emits them before the query resolves.
 */
export function barrierOn(c: pg.Client, onFailure: () => void): KeyFeed {
  let current: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const roundTrip = (): Promise<void> => {
    const trip = c.query("SELECT 1").then(
      () => undefined,
      (error: unknown) => {
        onFailure();
        throw error;
      },
    );
    current = trip.finally(() => {
      current = undefined;
    });
    return current;
  };
  return {
    barrier() {
      if (!current) return roundTrip();
      next ??= current
        .catch(() => undefined)
        .then(() => {
          next = undefined;
          // One started after the one we waited for ended (so after we arrived): join it.
          return current ?? roundTrip();
        });
      return next;
    },
  };
}
