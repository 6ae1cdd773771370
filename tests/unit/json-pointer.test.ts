import { describe, expect, it } from "vitest";
import { escapePointerToken, pointerTokens, resolvePointer } from "@/lib/json-pointer";

// The examples of RFC 6901, section 5, verbatim: the document and what each pointer refers to.
const doc = { foo: ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, 'k"l': 6, " ": 7, "m~n": 8 };
const rfcVectors: Array<[string, unknown]> = [
  ["", doc],
  ["/foo", ["bar", "baz"]],
  ["/foo/0", "bar"],
  ["/", 0],
  ["/a~1b", 1],
  ["/c%d", 2],
  ["/e^f", 3],
  ["/g|h", 4],
  ["/i\\j", 5],
  ['/k"l', 6],
  ["/ ", 7],
  ["/m~0n", 8],
];

describe("RFC 6901 JSON Pointer", () => {
  it.each(rfcVectors)("%j refers to what section 5 says", (pointer, expected) => {
    expect(resolvePointer(doc, pointer)).toEqual(expected);
  });

  it('"/" is the member named "" and never the root', () => {
    expect(pointerTokens("/")).toEqual([""]);
    expect(resolvePointer({ a: 1 }, "/")).toBeUndefined();
  });

  it("decodes ~01 as ~1 (the order of section 4), and escapes back", () => {
    expect(pointerTokens("/~01")).toEqual(["~1"]);
    expect(escapePointerToken("~1")).toBe("~01");
    expect(escapePointerToken("a/b~c")).toBe("a~1b~0c");
  });

  it("array indexes: no leading zeros, '-' never resolves, nothing past the end", () => {
    expect(resolvePointer(doc, "/foo/01")).toBeUndefined();
    expect(resolvePointer(doc, "/foo/-")).toBeUndefined();
    expect(resolvePointer(doc, "/foo/2")).toBeUndefined();
    expect(resolvePointer(doc, "/foo/1")).toBe("baz");
  });

  it("a string without a leading / is no pointer; inherited members are not members", () => {
    expect(pointerTokens("foo")).toBeNull();
    expect(resolvePointer(doc, "foo")).toBeUndefined();
    expect(resolvePointer({}, "/constructor")).toBeUndefined();
    expect(resolvePointer({}, "/__proto__")).toBeUndefined();
  });
});
