import { CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";

/** "1,234 ≈ tokens, o200k_base", or "—" while not counted; the unit always says which tokenizer. */
export function TokenCount({ tokens, testId }: { tokens: number | null | undefined; testId?: string }) {
  return (
    <span className="token-count" data-testid={testId} title={typeof tokens === "number" ? undefined : "Not counted yet"}>
      {formatTokens(tokens)} <span className="muted small">{CONTEXT_TOKENS_LABEL}</span>
    </span>
  );
}
