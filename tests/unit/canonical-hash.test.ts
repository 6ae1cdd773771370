import { describe, expect, it } from "vitest";
import { canonicalJson, HASH_SCHEME, hashTool, hashToolList } from "@/lib/snapshots/canonical-hash";

const tool = { name: "search", description: "Find things", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } };

describe("canonical hashing", () => {
  it("hashTool() ignores key order and number formatting (RFC 8785)", () => {
    const reordered = { inputSchema: { required: ["q"], properties: { q: { type: "string" } }, type: "object" }, description: "Find things", name: "search" };
    expect(hashTool(reordered)).toBe(hashTool(tool));
    expect(canonicalJson({ b: 1.0, a: 1e2 })).toBe('{"a":100,"b":1}');
  });

  it("hashTool() changes when any byte of model-visible text changes, including hidden characters", () => {
    expect(hashTool({ ...tool, description: "Find things\u200b" })).not.toBe(hashTool(tool));
    expect(hashTool({ ...tool, description: "Find Things" })).not.toBe(hashTool(tool));
  });

  it("hashes carry their scheme prefix so an algorithm change never looks like drift", () => {
    expect(hashTool(tool)).toMatch(new RegExp(`^${HASH_SCHEME}:[0-9a-f]{64}$`));
  });

  it("hashToolList() treats the list as a set keyed by name: order alone is not a change", () => {
    const a = { name: "a", hash: "h1" };
    const b = { name: "b", hash: "h2" };
    expect(hashToolList([a, b])).toBe(hashToolList([b, a]));
    expect(hashToolList([a, b])).not.toBe(hashToolList([a, { name: "b", hash: "h3" }]));
    expect(hashToolList([a])).not.toBe(hashToolList([a, b]));
  });

  it("hashToolList() keeps duplicate names visible instead of collapsing them", () => {
    const a = { name: "a", hash: "h1" };
    expect(hashToolList([a, a])).not.toBe(hashToolList([a]));
    expect(hashToolList([a, { name: "a", hash: "h2" }])).toBe(hashToolList([{ name: "a", hash: "h2" }, a]));
  });

  it("canonicalJson() refuses values JSON cannot represent", () => {
    expect(() => canonicalJson(undefined)).toThrow();
  });
});
