import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * As root, Postgres runs as the "postgres" user, which must be able to enter every directory
 * above its data dir; a private TMPDIR (mode 0700, as CI uses) is not, so fall back to one that is.
 */
export function traversableTmpBase(): string {
  const reachable = (dir: string): boolean => {
    for (let d = dir; ; d = path.dirname(d)) {
      if (!(fs.statSync(d).mode & 0o001)) return false;
      if (d === path.dirname(d)) return true;
    }
  };
  const candidates = [os.tmpdir(), "/var/tmp", "/tmp"];
  return process.getuid?.() !== 0 ? os.tmpdir() : (candidates.find((d) => fs.existsSync(d) && reachable(d)) ?? os.tmpdir());
}

