import pg from "pg";

// Several workers may watch the same public endpoint for different teams. Within one worker the
// cache's in-process flights make them share one fetch; across workers this lock does: a
// session-level Postgres advisory lock per cache key, held (on its own connection) while the
// holder fetches and stores. It is best effort by design: when all lock connections are busy the
// fetch goes ahead unlocked rather than queueing every server of the fleet behind a few.

export type FetchLockResult = { kind: "acquired"; release: () => Promise<void> } | { kind: "held" } | { kind: "unavailable" };

export type FetchLock = {
  /** Never waits for another holder: "held" means someone else is fetching this key right now. */
  tryAcquire(key: string): Promise<FetchLockResult>;
  close(): Promise<void>;
};

const lockName = (key: string) => `toolwatch:list-cache:${key}`;

export function createPgFetchLock(url: string, maxConnections = 4): FetchLock {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, idleTimeoutMillis: 30_000 });
  pool.on("error", () => undefined); // an idle client dropped by the server: the pool replaces it
  return {
    async tryAcquire(key) {
      if (pool.totalCount >= maxConnections && pool.idleCount === 0) return { kind: "unavailable" };
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch {
        return { kind: "unavailable" };
      }
      try {
        const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [lockName(key)]);
        if (!rows[0]?.ok) {
          client.release();
          return { kind: "held" };
        }
      } catch {
        client.release(true);
        return { kind: "unavailable" };
      }
      let released = false;
      return {
        kind: "acquired",
        release: async () => {
          if (released) return;
          released = true;
          try {
            await client.query("SELECT pg_advisory_unlock(hashtext($1))", [lockName(key)]);
            client.release();
          } catch {
            client.release(true); // a broken connection takes its session lock with it
          }
        },
      };
    },
    close: () => pool.end(),
  };
}
