import { ImportFormatError } from "./types";

/**
 * JSON with comments and trailing commas (VS Code and Zed settings are JSONC). Comments and the
 * commas before } or ] are removed outside strings, then JSON.parse reads the rest.
 */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === ",") {
      let j = i + 1;
      while (j < n && /\s/.test(text[j]!)) j++;
      if (text[j] !== "}" && text[j] !== "]") out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return JSON.parse(out.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ImportFormatError(`the file is not JSON (comments and trailing commas are allowed): ${(error as Error).message}`);
  }
}
