import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Imports across folders go through the "@/" alias (tsconfig.json "paths"): `@/lib/db`, not
// `../../../../lib/db` (issue 17). Same-folder "./x" imports stay. Two kinds of file keep relative
// imports because each runs as its own tsx process that may start outside the project: the demo
// fleet's servers (worker/demo-fleet/) and the test fixtures' servers (tests/fixtures/).
const root = path.resolve(import.meta.dirname, "../..");
const KEEP_RELATIVE = ["worker/demo-fleet/", "tests/fixtures/"];
const PARENT_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|vi\.mock\(\s*)["']\.\.\//;

describe("import paths", () => {
  it("no file outside the demo fleet and fixtures imports from a parent folder", () => {
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.tsx", "*.mts"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((f) => f && !f.startsWith("lib/generated/") && !KEEP_RELATIVE.some((dir) => f.startsWith(dir)) && fs.existsSync(path.join(root, f)));
    const offenders = files.filter((f) => PARENT_IMPORT.test(fs.readFileSync(path.join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
