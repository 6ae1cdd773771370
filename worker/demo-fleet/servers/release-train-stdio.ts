/**
 * Demo server "Release Train": stdio deployments server whose tool list drifts.
 *
 * Run: DEMO_CHANGE_INTERVAL_MS=60000 node --import tsx worker/demo-fleet/servers/release-train-stdio.ts
 *
 * The list is a pure function of wall-clock time:
 *   phase = floor(Date.now() / interval) mod 4
 *   0  baseline: 4 tools
 *   1  list_deployments gets a longer description (a "description drift")
 *   2  + promote_canary appears (a new tool)
 *   3  start_deployment gains the required parameter change_ticket (a breaking change)
 *   then back to 0 (everything above reverts at once)
 * Deriving the phase from the clock instead of from process uptime means a client
 * that reconnects (new child process) sees exactly the list the old process had
 * for that window, so the worker records real changes and not restart artefacts.
 *
 * Each mutation goes through RegisteredTool.update/remove or registerTool, which
 * make the SDK emit notifications/tools/list_changed (unsolicited on 2025-era
 * connections, on the client's subscriptions/listen stream on 2026-07-28 ones).
 */
import { McpServer, type CallToolResult, type RegisteredTool, type ToolAnnotations } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const log = (...args: unknown[]) => console.error("[release-train]", ...args);

const DEFAULT_INTERVAL_MS = 60_000;
function intervalFromEnv(): number {
  const raw = process.env.DEMO_CHANGE_INTERVAL_MS?.trim();
  const value = raw ? Number(raw) : DEFAULT_INTERVAL_MS;
  // Below ~100 ms the list would change faster than a client can re-list it.
  return Number.isFinite(value) && value >= 100 ? Math.floor(value) : DEFAULT_INTERVAL_MS;
}
const INTERVAL_MS = intervalFromEnv();

const phaseAt = (nowMs: number, intervalMs: number): number => Math.floor(nowMs / intervalMs) % 4;

const service = z.string().describe("Service name as registered in the service catalog, e.g. \"checkout-api\"");
const environment = z.enum(["staging", "production"]).describe("Target environment");
const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const MUTATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  annotations: ToolAnnotations;
}

const LIST_SHORT = "List recent deployments, newest first.";
const LIST_LONG =
  "List recent deployments, newest first. Each entry includes the service, environment, version, who triggered it, " +
  "current status (queued, rolling_out, canary, succeeded, failed, rolled_back), canary health and the change ticket.";

const startSchema = z.object({
  service,
  environment,
  version: z.string().describe("Git tag or image digest to deploy"),
  strategy: z.enum(["rolling", "canary", "blue_green"]).default("rolling").describe("Rollout strategy"),
});

/** The tool list for a phase. Order is stable so fresh and long-lived processes agree. */
function toolsForPhase(phase: number): ToolSpec[] {
  const tools: ToolSpec[] = [
    {
      name: "list_deployments",
      title: "List deployments",
      description: phase >= 1 ? LIST_LONG : LIST_SHORT,
      inputSchema: z.object({
        service: service.optional(),
        environment: environment.optional(),
        limit: z.number().int().min(1).max(100).default(20).describe("Maximum number of deployments"),
      }),
      annotations: READ,
    },
    {
      name: "get_deployment_status",
      title: "Deployment status",
      description: "Live status of one deployment: rollout progress per region, health checks and error budget burn.",
      inputSchema: z.object({ deployment_id: z.string().describe("Deployment id, e.g. \"dep_8f2c\"") }),
      annotations: READ,
    },
    {
      name: "start_deployment",
      title: "Start deployment",
      description:
        phase === 3
          ? "Deploy a version of a service. Production deployments require an approved change ticket."
          : "Deploy a version of a service to staging or production.",
      inputSchema:
        phase === 3
          ? startSchema.extend({ change_ticket: z.string().regex(/^CHG-\d+$/).describe("Approved change ticket, e.g. \"CHG-10423\"") })
          : startSchema,
      annotations: MUTATE,
    },
    {
      name: "rollback_deployment",
      title: "Roll back",
      description: "Roll a service back to the previously healthy version. Traffic shifts immediately.",
      inputSchema: z.object({ service, environment, reason: z.string().min(5).describe("Why the rollback is needed") }),
      annotations: { ...MUTATE, destructiveHint: true },
    },
  ];
  if (phase >= 2) {
    tools.push({
      name: "promote_canary",
      title: "Promote canary",
      description: "Promote a healthy canary to 100% of traffic. Fails if the canary error rate is above the service's SLO.",
      inputSchema: z.object({
        deployment_id: z.string().describe("Deployment currently in the canary stage"),
        skip_bake_time: z.boolean().default(false).describe("Promote before the configured bake time has elapsed"),
      }),
      annotations: MUTATE,
    });
  }
  return tools;
}

// Zod schemas are rebuilt for every phase, so compare what the wire would show:
// only real differences may trigger update() (each update emits list_changed).
const fingerprint = (spec: ToolSpec): string => JSON.stringify([spec.description, z.toJSONSchema(spec.inputSchema)]);

function respond(name: string, args: unknown): CallToolResult {
  const payload = { demo: true, tool: name, arguments: args, note: "Release Train is a Toolwatch demo server; nothing was deployed." };
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }] };
}

/** Registers a phase's tools on `server` and returns a function that moves it to another phase. */
function attachPhasedTools(server: McpServer, initialPhase: number): (phase: number) => void {
  const handles = new Map<string, { handle: RegisteredTool; spec: ToolSpec }>();
  const register = (spec: ToolSpec) => {
    const { name, ...config } = spec;
    const handle = server.registerTool(name, config, async (args: unknown) => respond(name, args));
    handles.set(name, { handle, spec });
  };
  toolsForPhase(initialPhase).forEach(register);

  return (phase) => {
    const desired = toolsForPhase(phase);
    const wanted = new Set(desired.map((t) => t.name));
    for (const [name, { handle }] of handles) {
      if (!wanted.has(name)) {
        handle.remove();
        handles.delete(name);
      }
    }
    for (const spec of desired) {
      const current = handles.get(spec.name);
      if (!current) register(spec);
      else if (fingerprint(current.spec) !== fingerprint(spec)) {
        current.handle.update({ description: spec.description, paramsSchema: spec.inputSchema });
        current.spec = spec;
      }
    }
  };
}

let currentPhase = phaseAt(Date.now(), INTERVAL_MS);
// serveStdio may call the factory twice (a server/discover probe instance, then
// a 2025-era instance if the client falls back to initialize); the pinned
// instance is always the most recent one, so only that one is kept in sync.
let moveLatest: ((phase: number) => void) | undefined;

function createReleaseTrainServer(): McpServer {
  const server = new McpServer(
    { name: "release-train", title: "Release Train", version: "0.9.3" },
    { instructions: "Deployment orchestration for the platform team. Always check get_deployment_status before rolling back." },
  );
  moveLatest = attachPhasedTools(server, currentPhase);
  return server;
}

function scheduleNextPhase(): void {
  // Wake just after the next window boundary; +5 ms guards against timer jitter
  // landing us a hair before it.
  const delay = INTERVAL_MS - (Date.now() % INTERVAL_MS) + 5;
  setTimeout(() => {
    const phase = phaseAt(Date.now(), INTERVAL_MS);
    if (phase !== currentPhase) {
      log(`phase ${currentPhase} -> ${phase}`);
      currentPhase = phase;
      moveLatest?.(phase);
    }
    scheduleNextPhase();
  }, delay).unref(); // don't keep the process alive once the client closes stdin
}

serveStdio(() => createReleaseTrainServer(), { onerror: (e) => log("error:", e.message) });
scheduleNextPhase();
log(`ready on stdio; interval ${INTERVAL_MS} ms, phase ${currentPhase}`);
