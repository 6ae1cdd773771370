// Node only in practice (the o200k_base tables cost ~70 MB and ~0.3–1 s to load): callers that may
// never count (the web tier) import this module lazily, see loadContextTokenCounter().
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { contextTextOf } from "./context-text";

// Server text is untrusted and may contain "<|endoftext|>" and the like: counted as the plain
// text a host would send, never as special tokens (gpt-tokenizer throws on them by default).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** o200k_base tokens of a string, special-token look-alikes included as plain text. */
export function countTextTokens(text: string): number {
  return countTokens(text, PLAIN_TEXT);
}

/** o200k_base tokens of one item as an agent host puts it in context (see context-text.ts). */
export function countContextTokens(kind: string, definition: unknown): number {
  return countTextTokens(contextTextOf(kind, definition));
}

export type ContextTokenCounter = typeof countContextTokens;
