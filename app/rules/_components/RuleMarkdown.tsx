import Link from "next/link";
import type { ReactNode } from "react";
import Markdown, { defaultUrlTransform, type Components, type UrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";
import { ruleLinkTarget } from "@/lib/rules/rule-links";

/** A link in a rules page: to another rule's page, out to the web, or (a repository file) its path as text. */
function RuleLink({ href, children }: { href?: string; children?: ReactNode }) {
  const target = ruleLinkTarget(href ?? "");
  if (target.kind === "page") return <Link href={target.href}>{children}</Link>;
  if (target.kind === "external")
    return (
      <a href={target.href} rel="noopener noreferrer nofollow" target="_blank">
        {children}
      </a>
    );
  return (
    <span>
      {children} (<code>{target.text}</code>)
    </span>
  );
}

const components: Components = { a: ({ href, children }) => <RuleLink href={href}>{children}</RuleLink> };
// A link's target is judged by RuleLink (ruleLinkTarget, which lets only http(s) and the app's own
// pages be links); every other URL gets react-markdown's own sanitising.
const urlTransform: UrlTransform = (url, key) => (key === "href" ? url : defaultUrlTransform(url));

/**
 * A page of docs/rules/, rendered from its markdown (GitHub's dialect, for the tables). Raw HTML in
 * the markdown is shown as text, never parsed: the pages quote attacks such as "<IMPORTANT>".
 */
export function RuleMarkdown({ markdown }: { markdown: string }) {
  return (
    <article className="rule-doc-page" data-testid="rule-doc">
      <Markdown remarkPlugins={[remarkGfm]} components={components} urlTransform={urlTransform}>
        {markdown}
      </Markdown>
    </article>
  );
}
