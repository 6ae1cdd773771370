import { describe, expect, it } from "vitest";
import { canonicalJson, hashTool } from "@/lib/hash/canonical-hash";

// Known answers from outside the code: RFC 8785 (JCS) §3.2.2-3.2.4 and Appendix B, and the
// reference implementation's README (cyberphone/json-canonicalization). The SHA-256 digests were
// computed with `printf '%s' '<canonical text>' | sha256sum`, the UTF-8 bytes with `xxd -p`.

const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");

describe("RFC 8785 known answers", () => {
  it("§3.2.2-3.2.4: the sample object canonicalises to the RFC's text, UTF-8 bytes and digest", () => {
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(canonicalJson(input)).toBe(expected);
    expect(hex(canonicalJson(input))).toBe(
      "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b3333333333333333332e333333333333332c31652b33302c342e352c302e3030322c31652d32375d2c22737472696e67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f227d",
    );
    expect(hashTool(input)).toBe("jcs-sha256:2d5e01a318d0f0879ab568c4be289c8b1f64ef8921a53c6277d5e069978baacb");
  });

  it("the reference implementation's sample: its published UTF-8 bytes and digest", () => {
    const input = JSON.parse(String.raw`{
      "numbers": [1E30, 4.50, 6, 2e-3, 0.000000000000000000000000001],
      "escaping": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "other": [null, true, false]
    }`);
    expect(hex(canonicalJson(input))).toBe(
      "7b226573636170696e67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f222c226e756d62657273223a5b31652b33302c342e352c362c302e3030322c31652d32375d2c226f74686572223a5b6e756c6c2c747275652c66616c73655d7d",
    );
    expect(hashTool(input)).toBe("jcs-sha256:b2794efb7f9d7b29923534cef9f5fdf9d518d5ab691f5c396d069c3a1cdfb47a");
  });

  it("§3.2.3: properties sort by UTF-16 code units, not by code point or locale", () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(canonicalJson(input)).toBe(expected);
    expect(hashTool(input)).toBe("jcs-sha256:5e321556d22018a9656991a9e94f77ec175fa193e52a2429d312f8419ec8b08c");
  });

  // Appendix B: IEEE-754 bit patterns and the text JCS must write for them.
  const NUMBERS: [string, string][] = [
    ["0000000000000000", "0"],
    ["8000000000000000", "0"], // minus zero
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ];
  it.each(NUMBERS)("Appendix B: %s is written %s", (bits, text) => {
    expect(canonicalJson(Buffer.from(bits, "hex").readDoubleBE(0))).toBe(text);
  });

  it("Appendix B: NaN and Infinity are not JSON and are refused", () => {
    for (const bits of ["7fffffffffffffff", "7ff0000000000000"]) expect(() => canonicalJson([Buffer.from(bits, "hex").readDoubleBE(0)])).toThrow();
  });
});
