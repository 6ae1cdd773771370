import type { Transport } from "@modelcontextprotocol/client";

type Message = { id?: string | number; method?: string; result?: unknown; error?: unknown };

/** The raw JSON-RPC result of the latest tools/list request, as it came off the wire. */
export type WireCapture = {
  lastToolsListResult: Record<string, unknown> | undefined;
  /** The same for prompts/list, resources/list and resources/templates/list, by method. */
  lastListResult: Map<string, Record<string, unknown>>;
  /** Count of tools, prompts and resources list_changed notifications seen on this connection (any delivery path). */
  listChangedSeen: number;
};

const LIST_METHODS = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list"]);
const LIST_CHANGED = new Set(["notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed"]);

/**
 * Hooks a transport *instance* (never a subclass: the SDK runs its stdio era probe on a sibling
 * process only for its exact base class) to see raw tools/list results before the SDK's schema
 * validation. That lets the worker salvage a list the SDK would reject whole, check 2026-07-28
 * conformance (resultType, ttlMs, cacheScope), and keep tools the SDK filters out client-side.
 */
export function instrumentTransport(transport: Transport): WireCapture {
  const capture: WireCapture = { lastToolsListResult: undefined, lastListResult: new Map(), listChangedSeen: 0 };
  const listIds = new Map<string | number, string>();

  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as Message;
    if (m.method && LIST_METHODS.has(m.method) && m.id !== undefined) {
      listIds.set(m.id, m.method);
      if (m.method === "tools/list") capture.lastToolsListResult = undefined;
      capture.lastListResult.delete(m.method);
    }
    return send(message, options);
  };

  let clientHandler: Transport["onmessage"];
  const observe: NonNullable<Transport["onmessage"]> = (message, extra) => {
    const m = message as Message;
    const method = m.id !== undefined ? listIds.get(m.id) : undefined;
    if (method) {
      listIds.delete(m.id!);
      if (m.result && typeof m.result === "object") {
        if (method === "tools/list") capture.lastToolsListResult = m.result as Record<string, unknown>;
        capture.lastListResult.set(method, m.result as Record<string, unknown>);
      }
    } else if (m.method && LIST_CHANGED.has(m.method)) {
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
