import pg from "pg";
import { parseRealtimeEvent, REALTIME_CHANNEL, type RealtimeEvent } from "./events";

export type EventListener = { close(): Promise<void> };

/**
 * A dedicated LISTEN connection that survives database restarts (reconnects with a capped delay).
 * Each web process and each worker holds one; NOTIFY fans out to all of them, so no extra broker
 * (Redis, socket.io adapter) is needed for worker → browser events.
 */
export function listenForEvents(
  url: string,
  onEvent: (event: RealtimeEvent) => void,
  log: (line: string) => void = () => undefined,
  /** Told when LISTEN is in place (true) and when the connection is lost or closed (false): events may have been missed. */
  onStatus: (listening: boolean) => void = () => undefined,
): EventListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;

  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("notification", (msg) => {
      if (msg.channel !== REALTIME_CHANNEL || !msg.payload) return;
      const event = parseRealtimeEvent(msg.payload);
      if (event) onEvent(event);
    });
    c.on("error", (error) => {
      log(`event listener error: ${error.message}`);
      scheduleReconnect();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${REALTIME_CHANNEL}`);
      attempt = 0;
      onStatus(true);
    } catch (error) {
      log(`event listener could not connect: ${(error as Error).message}`);
      scheduleReconnect();
    }
  };

  const scheduleReconnect = () => {
    onStatus(false);
    if (closed || retry) return;
    void client?.end().catch(() => undefined);
    client = undefined;
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
      onStatus(false);
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
