import path from "node:path";

// The project's root directory, the same whether a module runs from its source (through tsx) or
// bundled into .next/ by scripts/build-if-needed.ts, whose banner defines __toolwatchRoot.
declare const __toolwatchRoot: string | undefined;

export const PROJECT_ROOT: string = typeof __toolwatchRoot === "string" ? __toolwatchRoot : path.resolve(import.meta.dirname, "..");
