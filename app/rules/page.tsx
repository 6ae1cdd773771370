import { readRuleDoc } from "@/lib/rules/rule-docs";
import { RuleMarkdown } from "./_components/RuleMarkdown";

export const metadata = { title: "Audit rules · Toolwatch" };

/** Every audit rule, with links to the page that explains each (docs/rules/README.md). */
export default async function Page() {
  return <RuleMarkdown markdown={await readRuleDoc(null)} />;
}
