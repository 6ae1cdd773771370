// Findings name the string they matched by RFC 6901 pointer and UTF-16 offsets; the page resolves
// the pointer in the browser to show the match in context (lib/json-pointer.ts, shared with the server).
export { pointerTokens as pointerSegments, resolvePointer as valueAt } from "@/lib/json-pointer";
