// The API reference page (/api/docs): Scalar's browser bundle served from node_modules by
// app/api/docs/assets/[...file], started by a same-origin module (app/api/docs/init.js). No inline
// script, so the page's CSP (next.config.js, "/api/docs") is static: scripts from 'self' only.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors";

export const DOCS_SPEC_URL = "/api/v1/openapi.json";
const ASSET_ROOT = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser");

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Toolwatch API reference</title>
</head>
<body>
<div id="app"></div>
<script type="module" src="/api/docs/init.js"></script>
</body>
</html>
`;

export const DOCS_INIT_JS = `import { createApiReference } from "/api/docs/assets/standalone.esm.js";
createApiReference("#app", { url: ${JSON.stringify(DOCS_SPEC_URL)}, withDefaultFonts: false, hideClientButton: true, telemetry: false, showDeveloperTools: "never", agent: { disabled: true }, mcp: { disabled: true } });
`;

/** One file of the bundle: standalone.esm.js or chunks/<name>.js; anything else is a 404. */
export async function readDocsAsset(segments: string[]): Promise<string> {
  const rel = segments.join("/");
  if (!/^(standalone\.esm\.js|chunks\/[\w.-]+\.js)$/.test(rel) || rel.includes("..")) throw new AppError("NOT_FOUND", "asset not found");
  try {
    return await readFile(path.join(ASSET_ROOT, rel), "utf8");
  } catch {
    throw new AppError("NOT_FOUND", "asset not found");
  }
}
