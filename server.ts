import { createServer } from "node:http";
import next from "next";
import { Server } from "socket.io";
import { closeDb, getDb } from "./lib/db";
import { loadEnv, requireDatabaseUrl } from "./lib/env";
import { SOCKET_EVENT, tenantRoom } from "./lib/realtime/events";
import { listenForEvents } from "./lib/realtime/listen";
import { DEMO_TENANT_SLUG, ensureTenant } from "./lib/tenants/ensure-tenant";

// The web process: Next's request handler and socket.io on one port. It relays the worker's
// NOTIFYs to the right tenant room; it never talks MCP.
const env = loadEnv();
const url = requireDatabaseUrl(env);
const dev = process.env.NODE_ENV !== "production";
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 23)} ${line}`);

const app = next({ dev, hostname: env.HOST, port: env.PORT, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare();

const httpServer = createServer((req, res) => void handle(req, res));
const io = new Server(httpServer, { serveClient: false });

// Until accounts exist (issue 4) every visitor acts for the demo tenant; the room is chosen here,
// on the server, never by the client.
const demoTenant = await ensureTenant(getDb(), DEMO_TENANT_SLUG, "Demo team");
io.on("connection", (socket) => {
  void socket.join(tenantRoom(demoTenant.id));
});

const listener = listenForEvents(url, (event) => io.to(tenantRoom(event.tenantId)).emit(SOCKET_EVENT, event), log);

httpServer.listen(env.PORT, env.HOST, () => {
  const shown = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  log(`Toolwatch is ready at http://${shown}:${env.PORT}`);
});
httpServer.on("error", (error) => {
  console.error(`web server failed: ${error.message}`);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping web server`);
  setTimeout(() => process.exit(1), 8_000).unref();
  await new Promise<void>((resolve) => io.close(() => resolve()));
  await listener.close();
  await app.close();
  await closeDb();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));
