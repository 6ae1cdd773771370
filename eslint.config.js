import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The dependency rules of the architecture, enforced rather than remembered.
const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", "lib/generated/**", ".toolwatch/**", "next-env.d.ts", ".scratch/**"] },
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
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
  { files: ["bin/**/*.js"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
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
      "no-restricted-syntax": ["error", { selector: "NewExpression[callee.name='PrismaClient']", message: "Only lib/db.ts constructs PrismaClient." }],
    },
  },
);
