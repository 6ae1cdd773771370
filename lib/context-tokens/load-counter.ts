import type { ContextTokenCounter } from "./count-tokens";

let loading: Promise<ContextTokenCounter> | undefined;

/** The counter, loading the tokenizer on first use only (processes that never store a listing never pay for it). */
export function loadContextTokenCounter(): Promise<ContextTokenCounter> {
  loading ??= import("./count-tokens").then((m) => m.countContextTokens);
  return loading;
}
