import { diffWordsWithSpace } from "diff";
import type { Segment } from "./types";

// Whitespace is a token here (diffWordsWithSpace, not diffWords): an attacker's newline padding
// (detection-rules R3) must show as an insertion, and equal+delete / equal+insert must rebuild the
// two texts exactly.

/** Beyond this many edits the word diff gives up and reports a whole replacement (bounded time). */
const MAX_EDIT_LENGTH = 2_000;

export function diffText(before: string, after: string): Segment[] {
  if (before === after) return before ? [{ op: "equal", text: before }] : [];
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) {
    const whole: Segment[] = [];
    if (before) whole.push({ op: "delete", text: before });
    if (after) whole.push({ op: "insert", text: after });
    return whole;
  }
  return coalesce(parts.map((p) => ({ op: p.added ? "insert" : p.removed ? "delete" : "equal", text: p.value })));
}

/**
 * Joins changes separated only by whitespace into one deletion and one insertion, so a reworded
 * phrase reads "[-Use the path-]{+Paths are+}" rather than word-by-word fragments. The texts the
 * segments rebuild are unchanged.
 */
function coalesce(parts: Segment[]): Segment[] {
  const out: Segment[] = [];
  let del = "";
  let ins = "";
  const flush = () => {
    if (del) out.push({ op: "delete", text: del });
    if (ins) out.push({ op: "insert", text: ins });
    del = ins = "";
  };
  parts.forEach((p, i) => {
    if (p.op === "delete") del += p.text;
    else if (p.op === "insert") ins += p.text;
    else if ((del || ins) && /^\s+$/.test(p.text) && i + 1 < parts.length) {
      del += p.text;
      ins += p.text;
    } else {
      flush();
      const last = out.at(-1);
      if (last?.op === "equal") last.text += p.text;
      else out.push({ ...p });
    }
  });
  flush();
  return out;
}
