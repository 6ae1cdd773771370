import type { Level } from "@/lib/diff/types";

const TITLES: Record<Level, string> = {
  ERR: "ERR: breaks existing callers",
  WARN: "WARN: may break callers",
  INFO: "INFO: not breaking",
};

/** ERR / WARN / INFO, or nothing for a change without findings. */
export function LevelBadge({ level }: { level: Level | null | undefined }) {
  if (!level) return null;
  return (
    <span className={`level level-${level.toLowerCase()}`} title={TITLES[level]} data-testid="level-badge">
      {level}
    </span>
  );
}
