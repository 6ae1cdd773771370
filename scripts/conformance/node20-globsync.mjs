// Preload for running @modelcontextprotocol/conformance 0.1.16 on Node 20:
//   node --import ./scripts/conformance/node20-globsync.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js …
// Its bundle imports `globSync` from "fs" (Node ≥ 22) and uses it only in `tier-check`; that one
// missing export is the whole incompatibility. A builtin's ESM export list is fixed when it first
// loads, so adding fs.globSync at run time is not enough: a resolve hook hands the conformance
// bundle (and only it) a module that re-exports node:fs plus `glob`'s globSync. On Node ≥ 22 this
// does nothing.
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  const shim = new URL("./fs-with-globsync.mjs", import.meta.url).href;
  const hook = `
    const shim = ${JSON.stringify(shim)};
    export async function resolve(specifier, context, next) {
      const fromConformance = context.parentURL?.includes("/@modelcontextprotocol/conformance/");
      if (fromConformance && (specifier === "fs" || specifier === "node:fs")) return { url: shim, shortCircuit: true };
      return next(specifier, context);
    }`;
  register("data:text/javascript," + encodeURIComponent(hook));
}
