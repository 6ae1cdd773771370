import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { readRuleDoc } from "@/lib/rules/rule-docs";
import { ruleIdOf } from "@/lib/rules/rule-links";
import { RuleMarkdown } from "@/app/rules/_components/RuleMarkdown";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `${ruleIdOf((await params).id) ?? "No such rule"} · Toolwatch` };
}

/**
 * One rule explained, with an example that fires and one that does not (docs/rules/<id>.md). Any
 * other id is HTTP 404: the page is public (AppShell), so its content is in the first response
 * and notFound() still sets the status (behind the sign-in frame it streamed after a 200).
 */
export default async function Page({ params }: Params) {
  const id = ruleIdOf((await params).id);
  if (!id) notFound();
  return <RuleMarkdown markdown={await readRuleDoc(id)} />;
}
