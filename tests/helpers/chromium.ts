import { execFileSync } from "node:child_process";
import fs from "node:fs";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export function findChromium(): string | undefined {
  return CANDIDATES.find((p): p is string => Boolean(p && fs.existsSync(p)));
}

/** Finds Debian's Chromium, installing it with apt when we are root; otherwise says exactly what to do. */
export function ensureChromium(log: (line: string) => void = console.log): string {
  const found = findChromium();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const hasApt = fs.existsSync("/usr/bin/apt-get");
  if (isRoot && hasApt) {
    log("Chromium is missing: installing Debian's chromium with apt-get (about 80 s)…");
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    "The e2e tests need Chromium. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), " +
      "or set CHROMIUM_PATH to a Chromium/Chrome binary.",
  );
}
