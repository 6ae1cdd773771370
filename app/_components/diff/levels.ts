import { highestLevel, LEVEL_RANK } from "@/lib/diff/rules";
import type { Finding, Level } from "@/lib/diff/types";

/** The most severe level among findings, or null. */
export const highestOf = (findings: Finding[]): Level | null => highestLevel(findings.map((f) => f.level));

export const levelRank = (level: Level | null | undefined) => (level ? LEVEL_RANK[level] : 0);
