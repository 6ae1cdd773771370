#!/usr/bin/env node
// Adapter for `conformance client --command "node scripts/conformance-client.mjs"`: the runner
// appends the scenario's server URL and passes MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT
// (credentials as JSON). This maps them to `toolwatch snapshot` flags and runs bin/toolwatch.js;
// all OAuth behaviour under test is Toolwatch's own. Key and ID-token files are written to a
// private temp directory (never argv: they are credentials) and removed afterwards.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The suite's fixed client ID metadata document URL (its auth/basic-cimd scenario expects this client_id).
const CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json";
// The tool every auth scenario's server offers; calling it is what triggers scope step-up.
const CONFORMANCE_TOOL = "test-tool";

const url = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const scenario = process.env.MCP_CONFORMANCE_SCENARIO || context.name || "";
const args = ["snapshot", "--url", url, "--timeout", "15000"];
const dir = mkdtempSync(join(tmpdir(), "toolwatch-conformance-"));
const secretFile = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};

if (scenario.startsWith("auth/")) {
  if (context.idp_id_token) {
    args.push("--client-id", context.client_id, "--client-secret", context.client_secret,
      "--idp-token-endpoint", context.idp_token_endpoint, "--idp-client-id", context.idp_client_id,
      "--id-token-file", secretFile("id-token", context.idp_id_token));
  } else if (context.private_key_pem) {
    args.push("--client-id", context.client_id, "--client-key", secretFile("client-key.pem", context.private_key_pem));
  } else if (scenario.startsWith("auth/client-credentials")) {
    args.push("--client-id", context.client_id, "--client-secret", context.client_secret);
  } else {
    args.push("--oauth-headless", "--client-metadata-url", CONFORMANCE_CIMD_URL, "--call-tool", CONFORMANCE_TOOL);
    if (context.client_id) args.push("--client-id", context.client_id);
    if (context.client_secret) args.push("--client-secret", context.client_secret);
  }
}

// Inside the test suite: the same CLI as that run's bundle (tests/helpers/test-bundles.ts), which
// starts in a third of the CPU time bin/toolwatch.js (tsx) takes.
const bundled = process.env.TOOLWATCH_TEST_BUNDLES && join(process.env.TOOLWATCH_TEST_BUNDLES, "toolwatch.mjs");
const bin = bundled && existsSync(bundled) ? bundled : join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "toolwatch.js");
const result = spawnSync(process.execPath, [bin, ...args], { stdio: "inherit" });
rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
