// Isomorphic: which tokenizer the stored counts come from, and how the UI labels them. No
// tokenizer here (its tables are ~70 MB of memory; only the worker loads them).

/** OpenAI's encoding of the GPT-4o family (also GPT-4.1, GPT-5, o-series), via gpt-tokenizer. */
export const CONTEXT_TOKEN_ENCODING = "o200k_base";

/** Every place that shows a count says what it is: an estimate for one tokenizer. */
export const CONTEXT_TOKENS_LABEL = `≈ tokens, ${CONTEXT_TOKEN_ENCODING}`;

/** "12,345", or "—" while a count is unknown (rows from before counting, until the backfill). */
export function formatTokens(tokens: number | null | undefined): string {
  return typeof tokens === "number" ? tokens.toLocaleString("en-US") : "—";
}
