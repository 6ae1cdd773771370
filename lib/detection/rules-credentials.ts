// R18 — live-looking credentials embedded in model-visible text (mcpproxy secret.embedded).
// Documentation placeholders (AKIA…EXAMPLE, "xxxx", "<your-token>") are not findings.
import type { FindingSink, Scope } from "./sink";
import type { TextView } from "./text-view";
import type { Severity } from "./types";

const SECRETS: Array<{ re: RegExp; what: string; severity: Severity }> = [
  { re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, what: "AWS access key id", severity: "high" },
  { re: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----\s*[A-Za-z0-9+/=\s]{40,}/g, what: "private key block", severity: "critical" },
  { re: /\bgh[pousr]_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{60,}\b/g, what: "GitHub token", severity: "high" },
  { re: /\bxox[baprs]-[0-9A-Za-z-]{10,}\b/g, what: "Slack token", severity: "high" },
  { re: /\bsk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{32,}\b/g, what: "OpenAI/Anthropic API key", severity: "high" },
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, what: "Google API key", severity: "high" },
  { re: /\bglpat-[0-9A-Za-z_-]{20}\b/g, what: "GitLab token", severity: "high" },
  { re: /\b(?:sk|rk)_live_[0-9a-zA-Z]{24,}\b/g, what: "Stripe live key", severity: "high" },
  { re: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/g, what: "Slack webhook secret", severity: "high" },
];

const PLACEHOLDER = /example|xxxx|your|dummy|sample|placeholder|redacted|fake|test|\*{3}|\.{3}|<|>/i;

function looksReal(secret: string): boolean {
  // Key bodies are base64: a run of "A" (zero bytes) or "test" can occur by chance in a real one.
  if (secret.startsWith("-----BEGIN")) return !/\.\.\.|<|x{4}|EXAMPLE|REDACTED|PLACEHOLDER/i.test(secret);
  if (PLACEHOLDER.test(secret)) return false;
  const body = secret.replace(/^[a-z_-]+/i, "");
  return new Set(body).size >= 8 && !/(.)\1{5,}/.test(body) && !/0123456789|abcdef0123|1234567890/i.test(body);
}

export function scanCredentials(view: TextView, scope: Scope, sink: FindingSink): void {
  const raw = view.raw;
  if (raw.length < 20 || !/AKIA|ASIA|-----BEGIN|gh[pousr]_|github_pat_|xox[baprs]-|sk-|AIza|glpat-|_live_|hooks\.slack\.com/.test(raw)) return;
  for (const { re, what, severity } of SECRETS) {
    re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = re.exec(raw)) !== null; ) {
      if (!looksReal(m[0])) continue;
      const shown = `${m[0].slice(0, 8)}…`;
      sink.add(scope, "R18", severity, { text: shown, start: m.index, end: m.index + m[0].length }, `embedded ${what} (${shown}): a live credential in a tool definition`);
    }
  }
}
