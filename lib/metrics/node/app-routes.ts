import fs from "node:fs";
import path from "node:path";

// The route templates of a Next app directory, read once at start-up: every folder holding a
// page or a route handler, with route groups "(x)" and parallel-route slots "@x" left out of the
// URL and private folders "_x" skipped, as Next does. Next's own files are one template.

const ENTRY = /^(page|route)\.(tsx|ts|jsx|js|mdx)$/;
export const NEXT_INTERNAL_ROUTE = "/_next/[...path]";

export function listAppRoutes(appDir: string): string[] {
  const templates = new Set<string>([NEXT_INTERNAL_ROUTE]);
  const visit = (dir: string, urlSegments: string[]) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isFile() && ENTRY.test(e.name))) templates.add(`/${urlSegments.join("/")}`);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith("_")) continue;
      const inUrl = !/^\(.*\)$/.test(entry.name) && !entry.name.startsWith("@");
      visit(path.join(dir, entry.name), inUrl ? [...urlSegments, entry.name] : urlSegments);
    }
  };
  visit(appDir, []);
  return [...templates].sort();
}
