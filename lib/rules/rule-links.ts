// Links to and inside the rule pages of the web UI (/rules, /rules/<id>; the pages themselves are
// docs/rules/*.md, read by rule-docs.ts). No Node APIs: the alert page links findings from the browser.
import { RULE_BY_ID } from "@/lib/detection/catalog";
import type { AuditRuleId } from "@/lib/detection/types";

/** `id` if it names a rule of the catalog (so only those files are ever read), else null. */
export function ruleIdOf(id: string): AuditRuleId | null {
  return Object.hasOwn(RULE_BY_ID, id) ? (id as AuditRuleId) : null;
}

/** The web page that explains a rule, with an example. */
export const rulePageHref = (id: AuditRuleId): string => `/rules/${id}`;

/** Where a link inside a rules page goes in the web UI. */
export type RuleLink = { kind: "page"; href: string } | { kind: "external"; href: string } | { kind: "plain"; text: string };

/**
 * A link target written in docs/rules/*.md, for the web UI: another rule's page or the index stays
 * inside the app, an http(s) address stays a link, and a path to another file of the repository
 * (`../detection.md`) is named as that path, since the app does not serve the repository. Any other
 * scheme (javascript:, data:) is not a link at all: it is shown as written.
 */
export function ruleLinkTarget(target: string): RuleLink {
  if (/^https?:\/\//i.test(target)) return { kind: "external", href: target };
  if (/^[a-z][a-z\d+.-]*:/i.test(target)) return { kind: "plain", text: target };
  const hashAt = target.indexOf("#");
  const file = hashAt < 0 ? target : target.slice(0, hashAt);
  const hash = hashAt < 0 ? "" : target.slice(hashAt);
  if (file === "") return { kind: "page", href: hash || "/rules" };
  if (file === "README.md") return { kind: "page", href: `/rules${hash}` };
  const rule = /^(R\d+)\.md$/.exec(file)?.[1];
  if (rule && ruleIdOf(rule)) return { kind: "page", href: `${rulePageHref(rule as AuditRuleId)}${hash}` };
  // Resolved as a URL path against docs/rules/, which also folds "../" (and never climbs above the root).
  return { kind: "plain", text: decodeURIComponent(new URL(file, "file:///docs/rules/").pathname.slice(1)) };
}
