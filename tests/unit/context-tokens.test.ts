import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { contextTextOf } from "@/lib/context-tokens/context-text";
import { countContextTokens, countTextTokens } from "@/lib/context-tokens/count-tokens";
import { CONTEXT_TOKEN_ENCODING, CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";

// Expected counts are the published o200k_base behaviour (OpenAI's tiktoken, GPT-4o family),
// checked by hand: the token ids and their text pieces are written out so a reader can see the
// split, not just a number the implementation produced.
const pieces = (text: string) => encode(text).map((t) => decode([t]));

describe("o200k_base token counts", () => {
  it('counts "hello world" as 2 tokens: "hello" and " world" (ids 24912, 2375)', () => {
    expect(encode("hello world")).toEqual([24912, 2375]);
    expect(countTextTokens("hello world")).toBe(2);
  });

  it('counts "tiktoken is great!" as 6 tokens, as in OpenAI\'s cookbook for o200k_base', () => {
    expect(encode("tiktoken is great!")).toEqual([83, 8251, 2488, 382, 2212, 0]);
    expect(pieces("tiktoken is great!")).toEqual(["t", "ikt", "oken", " is", " great", "!"]);
    expect(countTextTokens("tiktoken is great!")).toBe(6);
  });

  it("counts the empty string as 0 tokens", () => {
    expect(countTextTokens("")).toBe(0);
  });

  it("counts special-token look-alikes in server text as plain text instead of throwing", () => {
    // gpt-tokenizer refuses "<|endoftext|>" by default; a hostile description must not break a listing.
    expect(() => encode("a <|endoftext|> b")).toThrow(/special token/i);
    expect(countTextTokens("a <|endoftext|> b")).toBe(9);
    expect(countTextTokens("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("says which encoding it is", () => {
    expect(CONTEXT_TOKEN_ENCODING).toBe("o200k_base");
    expect(CONTEXT_TOKENS_LABEL).toBe("≈ tokens, o200k_base");
    expect(formatTokens(12345)).toBe("12,345");
    expect(formatTokens(null)).toBe("—");
  });
});

describe("what an agent host puts in context", () => {
  const weather = { name: "get_weather", description: "Get the weather", inputSchema: { type: "object" } };

  it("a tool is {name, title?, description, inputSchema, outputSchema?, annotations?} as compact JSON, in that order", () => {
    const shuffled = { _meta: { "x/y": 1 }, inputSchema: { type: "object" }, icons: [{ src: "https://x/i.png" }], description: "Get the weather", name: "get_weather", execution: { taskSupport: "optional" } };
    expect(contextTextOf("tool", shuffled)).toBe('{"name":"get_weather","description":"Get the weather","inputSchema":{"type":"object"}}');
    const full = { annotations: { readOnlyHint: true }, outputSchema: { type: "object" }, inputSchema: { type: "object" }, description: "d", title: "T", name: "n" };
    expect(contextTextOf("tool", full)).toBe('{"name":"n","title":"T","description":"d","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}');
  });

  it("counts a small tool as 19 tokens, split where o200k_base splits JSON", () => {
    expect(pieces(contextTextOf("tool", weather))).toEqual([
      '{"', "name", '":"', "get", "_weather", '","', "description", '":"', "Get", " the", " weather", '","', "input", "Schema", '":{"', "type", '":"', "object", '"}}',
    ]);
    expect(countContextTokens("tool", weather)).toBe(19);
  });

  it('counts {"name":"a"} as 5 tokens: {" name ":" a "}', () => {
    expect(pieces('{"name":"a"}')).toEqual(['{"', "name", '":"', "a", '"}']);
    expect(countContextTokens("prompt", { name: "a", _meta: { hidden: true }, icons: [] })).toBe(5);
  });

  it("server instructions are their text as it is", () => {
    expect(contextTextOf("instructions", { name: "instructions", text: "hello world" })).toBe("hello world");
    expect(countContextTokens("instructions", { name: "instructions", text: "hello world" })).toBe(2);
    expect(contextTextOf("instructions", { name: "instructions" })).toBe("");
  });

  it("prompts, resources and templates are their listed definition without _meta and icons", () => {
    expect(contextTextOf("resource", { uri: "file:///a", name: "a", mimeType: "text/plain", _meta: { k: 1 } })).toBe('{"uri":"file:///a","name":"a","mimeType":"text/plain"}');
  });

  it("a definition that is not an object counts as an empty one", () => {
    expect(contextTextOf("tool", null)).toBe("{}");
    expect(countContextTokens("tool", "nonsense")).toBe(1);
  });
});

describe("counting by content address (loadAddressCounter)", () => {
  it("gives each address the count of its own definition and reuses it for the same address", async () => {
    const { loadAddressCounter } = await import("@/lib/context-tokens/load-counter");
    const count = await loadAddressCounter();
    const a = { name: "get_invoice", description: "hello world", inputSchema: { type: "object" } };
    const b = { name: "get_invoice", description: "tiktoken is great!", inputSchema: { type: "object" } };
    // Two addresses, two definitions: each keeps its own count (hand-checked pieces above: the
    // descriptions differ by 6 - 2 = 4 tokens).
    const first = count("tool", "jcs-sha256:a", a);
    const second = count("tool", "jcs-sha256:b", b);
    expect(second - first).toBe(4);
    // The same address is a count from memory: a definition passed with it is not read again.
    expect(count("tool", "jcs-sha256:a", b)).toBe(first);
    // The kind is part of the address: a prompt with the same hash string is counted on its own.
    expect(count("prompt", "jcs-sha256:a", { name: "p" })).not.toBe(first);
  });
});
