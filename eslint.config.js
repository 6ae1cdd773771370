import js from "@eslint/js";
import tseslint from "typescript-eslint";
import toolwatch from "./scripts/eslint-plugin-toolwatch.mjs";

// The dependency rules of the architecture, enforced rather than remembered.
const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

const PRISMA_ONLY_IN_DB = { selector: "NewExpression[callee.name='PrismaClient']", message: "Only lib/db.ts constructs PrismaClient." };
const UNGUARDED = "Outbound requests go through the guarded fetch (lib/discovery/node/guarded-fetch.ts: a GuardedFetch passed in), never the global fetch (issue 13).";
const NO_UNGUARDED_REQUESTS = [
  { selector: "ImportDeclaration[source.value=/^undici/]", message: UNGUARDED },
  { selector: "ImportDeclaration[source.value=/^(node:)?https?$/] ImportSpecifier[imported.name=/^(request|get)$/]", message: UNGUARDED },
  { selector: "CallExpression[callee.object.name=/^https?$/][callee.property.name=/^(request|get)$/]", message: UNGUARDED },
];

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", "lib/generated/**", ".toolwatch/**", "next-env.d.ts", ".scratch/**", ".tmp/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  { files: ["bin/**/*.js", "scripts/**/*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } } },
  {
    files: ["lib/**/*.ts"],
    rules: restrict([
      { group: ["**/app/**", "**/worker/**", "**/tests/**", "**/scripts/**"], message: "lib/ is framework-free and imports nothing from app/, worker/, tests/ or scripts/." },
      { group: ["next", "next/*", "react", "react-dom"], message: "lib/ must not depend on Next or React." },
    ]),
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: restrict([
      { group: ["**/worker/**", "**/scripts/**"], message: "app/ may import lib/, never worker/ or scripts/." },
      { group: ["**/lib/generated/**", "@prisma/*", "pg"], message: "Only lib/db.ts talks to the database; call a lib verb." },
    ]),
  },
  {
    files: ["worker/**/*.ts"],
    rules: restrict([
      { group: ["**/app/**"], message: "worker/ may import lib/, never app/." },
      { group: ["**/lib/generated/**", "@prisma/*"], message: "Only lib/db.ts constructs Prisma; call a lib verb." },
    ]),
  },
  // The data path runs one way (issue 12): discovery talks MCP and never reaches the store; the
  // store never reaches realtime or worker leases. The worker composes them.
  {
    files: ["lib/discovery/**/*.ts"],
    rules: restrict([
      { group: ["**/app/**", "**/worker/**", "**/tests/**", "**/scripts/**"], message: "lib/ is framework-free and imports nothing from app/, worker/, tests/ or scripts/." },
      { group: ["next", "next/*", "react", "react-dom"], message: "lib/ must not depend on Next or React." },
      { group: ["**/snapshots/**", "**/sessions/**", "**/cache/**", "**/servers/**", "**/alerts/**", "**/workers/**", "**/db", "**/generated/**", "@prisma/*"], message: "lib/discovery talks MCP only; the worker hands its results to the store." },
    ]),
  },
  {
    files: ["lib/snapshots/**/*.ts"],
    rules: restrict([
      { group: ["**/app/**", "**/worker/**", "**/tests/**", "**/scripts/**"], message: "lib/ is framework-free and imports nothing from app/, worker/, tests/ or scripts/." },
      { group: ["next", "next/*", "react", "react-dom"], message: "lib/ must not depend on Next or React." },
      { group: ["**/realtime/**", "**/workers/**", "**/discovery/**"], message: "lib/snapshots stores; it never reaches realtime, worker leases or discovery." },
    ]),
  },
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/db.ts", "lib/generated/**"],
    rules: {
      "no-restricted-syntax": ["error", PRISMA_ONLY_IN_DB, ...NO_UNGUARDED_REQUESTS],
    },
  },
  // Issue 13: every outbound request of lib/, worker/ and cli/ goes through the guarded fetch
  // (lib/discovery/node/guarded-fetch.ts: SSRF checks after DNS, the team's right to private
  // targets, a response cap). The global fetch, undici and http(s).request cannot come back; the
  // types ask for a GuardedFetch, this catches a bare call. Tests and bench are exempt.
  {
    files: ["lib/**/*.ts", "worker/**/*.ts", "cli/**/*.ts"],
    ignores: ["lib/discovery/node/guarded-fetch.ts", "lib/generated/**"],
    rules: {
      "no-restricted-globals": ["error", { name: "fetch", message: UNGUARDED }, { name: "XMLHttpRequest", message: UNGUARDED }, { name: "WebSocket", message: UNGUARDED }, { name: "EventSource", message: UNGUARDED }],
      "no-restricted-properties": ["error", { object: "globalThis", property: "fetch", message: UNGUARDED }, { object: "window", property: "fetch", message: UNGUARDED }],
    },
  },
  {
    files: ["worker/**/*.ts", "cli/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", ...NO_UNGUARDED_REQUESTS] },
  },
  // The guard itself is built on undici.
  { files: ["lib/discovery/node/guarded-fetch.ts"], rules: { "no-restricted-syntax": ["error", PRISMA_ONLY_IN_DB] } },
  // The verb shape (lib/CONVENTIONS.md): an exported lib function that writes authorizes and audits.
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/generated/**"],
    plugins: { toolwatch },
    rules: { "toolwatch/verb-writes-audited": "error" },
  },
);
