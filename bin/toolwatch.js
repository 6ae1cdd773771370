#!/usr/bin/env node
// Entry of the `toolwatch` command: loads the TypeScript CLI through tsx (no build step).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The project's tsconfig.json (its "@/…" import alias) wherever the command is run from.
register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
