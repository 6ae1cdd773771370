import type { ConnectionFacts } from "@/lib/discovery/open-connection";
import type { LockedServer } from "./lockfile";

/** The facts a lock pins, from a connection's facts (the verdict and push channel are the client's view, not the server's). */
export function lockedServerFacts(facts: ConnectionFacts): LockedServer {
  return {
    protocolVersion: facts.protocolVersion,
    era: facts.era,
    transport: facts.transportUsed,
    serverInfo: facts.serverInfo ? { ...facts.serverInfo } : null,
    capabilities: facts.capabilities,
    instructions: facts.instructions,
  };
}
