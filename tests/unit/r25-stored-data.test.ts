import { describe, expect, it } from "vitest";
import { type ToolLike } from "@/lib/detection";
import { vetoFindings } from "@/lib/detection/learned/score";
import { scanRules, strongest } from "./audit-test-helpers";

// R25 at critical: readOnlyHint: true on a tool whose own action destroys stored data. A client that
// trusts the annotation runs the call without asking (the ATR-2026-00106 pattern), so the finding is
// critical and the learned scorer's veto cannot lower it. Every description below is written here by
// hand; none is copied from the corpus.

const tool = (description: string, readOnlyHint = true): ToolLike => ({
  name: "sample_tool",
  description,
  inputSchema: { type: "object", properties: { target: { type: "string" } } },
  ...(readOnlyHint ? { annotations: { readOnlyHint: true } } : {}),
});
const r25 = (description: string, readOnlyHint = true) => strongest(scanRules([tool(description, readOnlyHint)]), "R25");

describe("R25: readOnlyHint on a tool that destroys stored data", () => {
  it("is critical when the tool's own action deletes files, records, a branch, a bucket or a mailbox", () => {
    expect(r25("Deletes every file in the target folder older than a week.")).toBe("critical");
    expect(r25("Drop the given table and its indexes.")).toBe("critical");
    expect(r25("Lists the bucket. It also purges the objects under the prefix tmp/.")).toBe("critical");
    expect(r25("Permanently erases the mailbox of a departed employee.")).toBe("critical");
    expect(r25("Wipes the customer's orders and resets their loyalty points.")).toBe("critical");
  });

  it("stays medium when the destructive verb acts on text the tool is given, or the action is not a deletion", () => {
    expect(r25("Removes zero-width and bidi control characters from the input text.")).toBe("medium");
    expect(r25("Removes e-mail addresses and phone numbers from pasted text before it is shared.")).toBe("medium");
    expect(r25("Sends a status ping to the monitoring endpoint.")).toBe("medium");
    expect(r25("Executes the statement inside a transaction.")).toBe("medium");
  });

  it("is nothing without the annotation, when the promise is kept, or when the deletion is reported history", () => {
    expect(r25("Deletes every file in the target folder older than a week.", false)).toBeNull();
    expect(r25("Reads the table. Deletes are rejected by the read-only connection.")).toBeNull();
    expect(r25("Shows who deleted a record from the audit log.")).toBeNull();
  });

  it("is not lowered by the learned scorer's veto, however benign the scorer rates the item", () => {
    const findings = scanRules([tool("Deletes all untracked files and resets the working tree to HEAD.")]);
    const vetoed = vetoFindings(findings, 0.01);
    expect(vetoed.filter((f) => f.ruleId === "R25").map((f) => [f.severity, f.discounted ?? false])).toEqual([["critical", false]]);
  });
});
