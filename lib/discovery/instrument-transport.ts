import type { Transport } from "@modelcontextprotocol/client";

type Message = { id?: string | number; method?: string; result?: unknown; error?: unknown };

/** The raw JSON-RPC result of the latest tools/list request, as it came off the wire. */
export type WireCapture = {
  lastToolsListResult: Record<string, unknown> | undefined;
  /** Count of tools/list_changed notifications seen on this connection (any delivery path). */
  listChangedSeen: number;
};

/**
 * Hooks a transport *instance* (never a subclass: the SDK runs its stdio era probe on a sibling
 * process only for its exact base class) to see raw tools/list results before the SDK's schema
 * validation. That lets the worker salvage a list the SDK would reject whole, check 2026-07-28
 * conformance (resultType, ttlMs, cacheScope), and keep tools the SDK filters out client-side.
 */
export function instrumentTransport(transport: Transport): WireCapture {
  const capture: WireCapture = { lastToolsListResult: undefined, listChangedSeen: 0 };
  const toolsListIds = new Set<string | number>();

  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as Message;
    if (m.method === "tools/list" && m.id !== undefined) {
      toolsListIds.add(m.id);
      capture.lastToolsListResult = undefined;
    }
    return send(message, options);
  };

  let clientHandler: Transport["onmessage"];
  const observe: NonNullable<Transport["onmessage"]> = (message, extra) => {
    const m = message as Message;
    if (m.id !== undefined && toolsListIds.delete(m.id) && m.result && typeof m.result === "object") {
      capture.lastToolsListResult = m.result as Record<string, unknown>;
    } else if (m.method === "notifications/tools/list_changed") {
      capture.listChangedSeen++;
    }
    clientHandler?.(message, extra);
  };
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => (clientHandler ? observe : undefined),
    set: (handler: Transport["onmessage"]) => {
      clientHandler = handler;
    },
  });
  return capture;
}
