// The markdown of the rule pages (/rules, /rules/<id>): the hand-written pages of docs/rules/, read
// from the checkout at request time, so the page a finding links to is the one in the repository.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AuditRuleId } from "@/lib/detection/types";

const RULES_DIR = path.join(process.cwd(), "docs", "rules");

/**
 * The markdown of a rule's page, or of the index (docs/rules/README.md) when `id` is null. Only ids
 * of the catalog reach here (rule-links.ts `ruleIdOf`), so no request names a file.
 */
export async function readRuleDoc(id: AuditRuleId | null): Promise<string> {
  return readFile(path.join(RULES_DIR, id === null ? "README.md" : `${id}.md`), "utf8");
}
