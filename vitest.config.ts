import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// A fixed test key so rows written by test factories and by the product's own processes decrypt
// alike; a scratch data dir so tests never touch the developer's .toolwatch/.
const testEnv = {
  TOOLWATCH_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  TOOLWATCH_DATA_DIR: path.join(os.tmpdir(), "toolwatch-test-data"),
  // Tests sign many users up from one address; the brake itself is tested with its own limit.
  TOOLWATCH_AUTH_RATE_LIMIT: "1000",
  // Suites register loopback fixtures from teams no instance administrator belongs to; the rule
  // itself (default "admins") is tested in tests/integration/private-targets*.test.ts, which set it.
  TOOLWATCH_PRIVATE_TARGETS: "all",
  TOOLWATCH_AUTH_RATE_PER_ACCOUNT: "1000/min",
  // The same for the /api/v1 limits (suites drive hundreds of requests through one key); the
  // limits' own suite (api-rate-limit.test.ts) sets low ones for itself.
  TOOLWATCH_API_RATE_PER_KEY: "100000/min",
  TOOLWATCH_API_RATE_PER_TEAM: "100000/min",
  TOOLWATCH_API_RATE_PER_USER: "100000/min",
  TOOLWATCH_SHARE_RATE_PER_ADDRESS: "100000/min",
};

// "@/lib/…" resolves from the project root (tsconfig.json "paths"); every project needs it.
const resolve = { alias: [{ find: /^@\//, replacement: `${import.meta.dirname}/` }] };

// Three tiers. Integration and e2e each get a throwaway real Postgres from their global setup.
export default defineConfig({
  test: {
    projects: [
      // groupOrder: static and unit together, then integration, then e2e. On a 2-core machine,
      // tiers running side by side starve each other's real servers of CPU.
      { resolve, test: { name: "static", include: ["tests/static/**/*.test.ts"], testTimeout: 180_000, sequence: { groupOrder: 0 } } },
      { resolve, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", env: testEnv, sequence: { groupOrder: 0 } } },
      {
        resolve,
        test: {
          name: "integration",
          env: testEnv,
          sequence: { groupOrder: 1 },
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/database-global-setup.ts", "tests/helpers/test-bundles-setup.ts"],
          // Each file has a database of its own (file-database-setup.ts), so two files run side by
          // side: most of this tier's time is spent waiting on real servers, timeouts and child
          // processes (960 s of wall time one file at a time, 587 s two at a time; docs/testing.md).
          // The e2e tier stays one file at a time: there the CPU is the limit (two at a time made
          // files time out and ran no faster).
          setupFiles: ["tests/helpers/file-database-setup.ts"],
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        test: {
          name: "e2e",
          env: testEnv,
          sequence: { groupOrder: 2 },
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/helpers/database-global-setup.ts", "tests/helpers/test-bundles-setup.ts", "tests/helpers/e2e-global-setup.ts"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
