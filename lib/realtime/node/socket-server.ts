import type { Server as HttpServer } from "node:http";
import { fromNodeHeaders } from "better-auth/node";
import { Server, type DefaultEventsMap, type Socket } from "socket.io";
import { authenticate, type Principal } from "@/lib/auth/authenticate";
import { listTeamsOf } from "@/lib/auth/teams";
import { getDb, type Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { READY_EVENT, SOCKET_EVENT, tenantRoom, userRoom, type RealtimeEvent } from "@/lib/realtime/events";
import { listenForEvents } from "@/lib/realtime/listen";
import { authenticateShareSocket, createShareRelay, type ShareSocketData } from "./share-sockets";

// socket.io for the web process. Who a socket is and which rooms it is in are decided here, on
// the server, once per connection: there is no handler through which a client can join a room.
//
// Rooms: a signed-in user's socket is in userRoom(userId) and tenantRoom(id) of every team they
// belong to (the browser filters by its active team, so switching teams needs no reconnect); an
// API key's socket is in its team's room only. Membership is read at connect time, so when it
// changes the socket has to connect again:
// - on `membership:changed` (a member removed or leaving) the user's sockets get their transport
//   closed; socket.io clients treat that as a lost connection and reconnect by themselves,
//   landing in the rooms of their current teams.
// - after creating or joining a team (no NOTIFY for that) the browser calls
//   socket.disconnect().connect() itself.
// - a socket whose session or key stops verifying (signed out, revoked, expired) is dropped for
//   good (server-side disconnect: clients do not retry), checked every `revalidateMs`.
// Joining takes a membership read after the client's "connect", and an event sent in between
// would be lost: READY_EVENT tells the client when its rooms are joined.
// A public share page's socket (`auth: { shareToken }`) is in its link's room only; what it
// hears, and when it is dropped, is decided in ./share-sockets.ts.

export type SocketServerOptions = {
  /** Postgres URL whose NOTIFYs (lib/realtime/notify.ts) are relayed to the rooms. */
  listenUrl: string;
  /** Also told every event, and whether the LISTEN feed is up (e.g. to keep a cache honest). */
  onEvent?: (event: RealtimeEvent) => void;
  onFeedStatus?: (listening: boolean) => void;
  log?: (line: string) => void;
  db?: Db;
  /** How often every socket's credentials are checked again (default 60 s). */
  revalidateMs?: number;
};

export type SocketServer = { io: IoServer; close(): Promise<void> };

type SocketData = { principal?: Principal; headers?: Headers } & ShareSocketData;
type IoServer = Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;
type AuthedSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

export function attachSocketServer(httpServer: HttpServer, options: SocketServerOptions): SocketServer {
  const log = options.log ?? (() => undefined);
  const db = options.db ?? getDb();
  const io: IoServer = new Server(httpServer, { serveClient: false });
  const shares = createShareRelay(io, db, log);

  // Every refusal reads the same ("unauthorized"): no hint whether a key exists or was revoked.
  io.use((socket, next) => {
    const handshake = async () => {
      const shareToken = shareTokenOf(socket);
      if (shareToken !== undefined) {
        socket.data = { share: await authenticateShareSocket(db, shareToken) };
        return;
      }
      const headers = credentialsOf(socket);
      const principal = await authenticate(headers);
      if (!principal) throw new AppError("UNAUTHENTICATED", "no credentials");
      socket.data = { principal, headers };
    };
    handshake().then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof AppError)) log(`socket handshake failed: ${(error as Error).message}`);
        next(new Error("unauthorized"));
      },
    );
  });

  io.on("connection", (socket) => {
    const { principal, share } = socket.data;
    const joined = share ? shares.join(socket) : principal ? joinRooms(db, socket, principal) : Promise.reject(new Error("no identity"));
    void joined.then(() => {
      if (socket.connected) socket.emit(READY_EVENT);
    }, (error: Error) => {
      log(`socket ${socket.id}: could not join its rooms (${error.message}); dropping it`);
      socket.disconnect(true);
    });
  });

  const listener = listenForEvents(
    options.listenUrl,
    (event) => {
      relay(io, event);
      shares.relay(event);
      options.onEvent?.(event);
    },
    log,
    options.onFeedStatus,
  );

  let checking = false; // one pass at a time, however slow the database is
  const revalidate = setInterval(() => {
    if (checking) return;
    checking = true;
    void Promise.all([revalidateAll(io, log), shares.revalidate().catch((error: Error) => log(`share socket revalidation skipped: ${error.message}`))]).finally(
      () => (checking = false),
    );
  }, options.revalidateMs ?? 60_000);
  revalidate.unref();

  return {
    io,
    close: async () => {
      clearInterval(revalidate);
      await listener.close();
      await io.close();
    },
  };
}

/**
 * A share link's token from `auth: { shareToken }`, if the page sent one. It is not ambient (a
 * page must hold it), so like an API key it needs no origin check; cookies sent along are ignored.
 */
function shareTokenOf(socket: AuthedSocket): unknown {
  const auth = socket.handshake.auth as Record<string, unknown> | undefined;
  return auth && "shareToken" in auth ? auth.shareToken : undefined;
}

/**
 * The handshake's credentials as request headers: its cookies (same-origin only), or an API key
 * from `auth: { token }` or an Authorization header. A key is not ambient, so it needs no origin
 * check; a cookie is, so another site's page must not open a socket with it.
 */
function credentialsOf(socket: AuthedSocket): Headers {
  const headers = fromNodeHeaders(socket.handshake.headers);
  const token: unknown = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
  if (token !== undefined) {
    if (typeof token !== "string" || !token) throw new AppError("UNAUTHENTICATED", "auth.token must be an API key");
    headers.set("authorization", `Bearer ${token}`);
  }
  if (!headers.get("authorization") && !sameOrigin(headers)) throw new AppError("UNAUTHENTICATED", "Cross-site socket refused");
  return headers;
}

function sameOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (!origin) return true; // not a browser (browsers always send Origin on WebSocket and CORS requests)
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

async function joinRooms(db: Db, socket: AuthedSocket, principal: Principal): Promise<void> {
  if (principal.kind === "apiKey") {
    await socket.join(tenantRoom(principal.tenantId));
    return;
  }
  // The user room first, then the membership read: a removal that commits after the read is
  // announced by a NOTIFY that finds the socket already in its user room, so none slips through.
  await socket.join(userRoom(principal.userId));
  const teams = await listTeamsOf(db, principal.userId);
  if (socket.disconnected) return;
  await socket.join(teams.map((t) => tenantRoom(t.id)));
}

function relay(io: IoServer, event: RealtimeEvent): void {
  if (event.type === "membership:changed") {
    // Only the affected user hears of it: the team's room would learn who left.
    io.to(userRoom(event.userId)).emit(SOCKET_EVENT, event);
    dropTransports(io, userRoom(event.userId));
    return;
  }
  io.to(tenantRoom(event.tenantId)).emit(SOCKET_EVENT, event);
}

/**
 * Closes the underlying connection of every local socket in `room` without a socket.io
 * DISCONNECT packet: the client sees "transport close" and reconnects on its own (a server
 * disconnect would leave it offline). Every web process gets the NOTIFY and handles its own sockets.
 */
function dropTransports(io: IoServer, room: string): void {
  const ids = io.of("/").adapter.rooms.get(room);
  for (const id of ids ? [...ids] : []) io.of("/").sockets.get(id)?.conn.close();
}

async function revalidateAll(io: IoServer, log: (line: string) => void): Promise<void> {
  for (const socket of [...io.of("/").sockets.values()]) {
    if (!socket.data?.headers) continue;
    try {
      const principal = await authenticate(socket.data.headers);
      if (!principal) socket.disconnect(true);
    } catch (error) {
      if (error instanceof AppError) socket.disconnect(true);
      else log(`socket revalidation skipped: ${(error as Error).message}`); // a database blip drops no one
    }
  }
}
