// The redirect target of the CLI's authorization-code flow (RFC 8252 §7.3): an HTTP listener on
// 127.0.0.1 with a random port, for one callback.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type LoopbackReceiver = {
  /** http://127.0.0.1:<port>/callback */
  redirectUrl: string;
  /**
   * Resolves with the callback's query once one arrives whose `state` equals `expectedState()`;
   * a callback with an `error` rejects (its text is not shown: it may be attacker-controlled).
   */
  waitForCallback(expectedState: () => string | undefined): Promise<URLSearchParams>;
  /** Hands a callback URL over without the HTTP hop (the headless follower); true when it was accepted. */
  deliver(callbackUrl: URL): boolean;
  close(): Promise<void>;
};

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>Toolwatch</title><p>${text}</p>`;

export async function startLoopbackReceiver(opts: { timeoutMs: number }): Promise<LoopbackReceiver> {
  let pending: { expected: () => string | undefined; resolve: (p: URLSearchParams) => void; reject: (e: Error) => void } | undefined;
  const early: URLSearchParams[] = []; // callbacks that arrived before anyone waited (headless)

  const settle = (params: URLSearchParams): boolean => {
    if (!pending) return false;
    const expected = pending.expected();
    if (!expected || params.get("state") !== expected) return false;
    const { resolve, reject } = pending;
    pending = undefined;
    if (params.get("error")) reject(new Error("the authorization server refused the authorization request"));
    else if (!params.get("code")) reject(new Error("the authorization callback carries no code"));
    else resolve(params);
    return true;
  };

  const accept = (params: URLSearchParams): boolean => settle(params) || (!pending && params.has("state") && early.push(params) > 0);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const accepted = accept(url.searchParams);
    res
      .writeHead(accepted ? 200 : 400, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(PAGE(accepted ? "Authorization received. You can close this window and return to the terminal." : "This authorization callback does not match the request in progress."));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    waitForCallback: (expected) =>
      new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending = undefined;
          reject(new Error(`no authorization callback within ${Math.round(opts.timeoutMs / 1000)} s`));
        }, opts.timeoutMs);
        pending = {
          expected,
          resolve: (p) => (clearTimeout(timer), resolve(p)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        };
        // A callback that came in first (the headless follower is fast) is matched now.
        while (early.length && pending) settle(early.shift()!);
      }),
    deliver: (callbackUrl) => accept(callbackUrl.searchParams),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
