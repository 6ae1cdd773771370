import { describe, expect, it } from "vitest";
import { ruleIdOf, ruleLinkTarget, rulePageHref } from "@/lib/rules/rule-links";

// The links of the rule pages (/rules, /rules/<id>), against targets written by hand as they appear
// in docs/rules/*.md, and the ids a request may name.

describe("rule ids a page may name", () => {
  it("accepts the catalog's ids and nothing else", () => {
    expect(ruleIdOf("R1")).toBe("R1");
    expect(ruleIdOf("R35")).toBe("R35");
    for (const id of ["R0", "R36", "r1", "R01", " R1", "R1.md", "../R1", "__proto__", "constructor", "toString", ""]) expect(ruleIdOf(id), id).toBeNull();
  });
  it("a rule's page is /rules/<id>", () => {
    expect(rulePageHref("R22")).toBe("/rules/R22");
  });
});

describe("links inside a rules page", () => {
  it("another rule's page and the index stay in the app, anchors kept", () => {
    expect(ruleLinkTarget("R29.md")).toEqual({ kind: "page", href: "/rules/R29" });
    expect(ruleLinkTarget("R35.md#the-veto")).toEqual({ kind: "page", href: "/rules/R35#the-veto" });
    expect(ruleLinkTarget("README.md")).toEqual({ kind: "page", href: "/rules" });
    expect(ruleLinkTarget("#notes")).toEqual({ kind: "page", href: "#notes" });
  });
  it("web addresses stay links", () => {
    expect(ruleLinkTarget("https://modelcontextprotocol.io/specification")).toEqual({ kind: "external", href: "https://modelcontextprotocol.io/specification" });
  });
  it("other files are named by their path in the repository, never served", () => {
    expect(ruleLinkTarget("../detection.md")).toEqual({ kind: "plain", text: "docs/detection.md" });
    expect(ruleLinkTarget("../../lib/detection/severity.ts")).toEqual({ kind: "plain", text: "lib/detection/severity.ts" });
    expect(ruleLinkTarget("R99.md")).toEqual({ kind: "plain", text: "docs/rules/R99.md" });
    expect(ruleLinkTarget("../../../../etc/passwd")).toEqual({ kind: "plain", text: "etc/passwd" });
  });
  it("any other scheme is not a link: shown as written", () => {
    expect(ruleLinkTarget("javascript:alert(1)")).toEqual({ kind: "plain", text: "javascript:alert(1)" });
    expect(ruleLinkTarget("data:text/html,<b>x</b>")).toEqual({ kind: "plain", text: "data:text/html,<b>x</b>" });
  });
});
