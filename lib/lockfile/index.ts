// Lock files for CI (`toolwatch lock` / `toolwatch check`): pure, no I/O. Format: docs/ci-gate.md.
export { buildLockfile, lockTools, parseLockfile, serializeLockfile, LockfileError, LOCKFILE_VERSION, type Lockfile, type LockedServer, type LockedTool } from "./lockfile";
export { compareServerFacts, SERVER_RULES, type ServerChange, type ServerRuleId } from "./compare-server";
export { checkAgainstLock, checkFails, type LockCheck } from "./check-against-lock";
export { lockedServerFacts } from "./locked-server-facts";
