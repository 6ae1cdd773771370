// node:fs plus globSync from the `glob` package, for the conformance bundle on Node 20 (see node20-globsync.mjs).
export * from "node:fs";
export { default } from "node:fs";
export { globSync } from "glob";
