import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvSchema } from "@/lib/env";

// The README stays a short front door (issue 17): every other page is one link away from it, and
// no link in the README or docs/ points at a file that does not exist.
const root = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const docPages = fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md"));

function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
    links.push(target.split("#")[0]!);
  }
  return links;
}

describe("README and docs/", () => {
  it("keeps the README at about 250 lines or fewer", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(250);
  });

  it("links every docs/ page from the README", () => {
    const linked = new Set(relativeLinks(read("README.md")).map((link) => path.normalize(link)));
    const unlinked = docPages.filter((page) => !linked.has(path.join("docs", page)));
    expect(unlinked).toEqual([]);
  });

  it("has no relative link to a missing file", () => {
    const broken: string[] = [];
    for (const file of ["README.md", ...docPages.map((p) => path.join("docs", p))]) {
      for (const link of relativeLinks(read(file))) {
        if (!fs.existsSync(path.resolve(root, path.dirname(file), link))) broken.push(`${file} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("documents every environment variable in docs/configuration.md", () => {
    const doc = read("docs/configuration.md");
    expect(Object.keys(EnvSchema.shape).filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });
});
