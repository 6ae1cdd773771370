export type SignatureHeaders = { signature: string; timestamp: string; delivery: string; event: string; toleranceSeconds: number };

/** How a receiver checks that a delivery came from this Toolwatch, with the header names it really sends. */
export function VerifyHelp({ headers, secretName = "SECRET" }: { headers: SignatureHeaders; secretName?: string }) {
  const sig = headers.signature.toLowerCase();
  const ts = headers.timestamp.toLowerCase();
  const code = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request body exactly as received (a string), before any JSON parsing
function verify(rawBody, headers, ${secretName}) {
  const timestamp = headers["${ts}"];
  const signature = headers["${sig}"] ?? "";
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > ${headers.toleranceSeconds}) return false; // replayed or clock skew
  const expected = "sha256=" + createHmac("sha256", ${secretName}).update(\`\${timestamp}.\${rawBody}\`).digest("hex");
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}`;
  return (
    <div className="verify-help" data-testid="verify-help">
      <p>Every delivery is a POST with a JSON body and these headers:</p>
      <ul className="flat-list">
        <li>
          <code>{headers.signature}</code>: <code>sha256=</code> followed by the lowercase hex HMAC-SHA256 of <code>{"<timestamp>.<raw body>"}</code>, keyed
          with the whole secret (including <code>whsec_</code>).
        </li>
        <li>
          <code>{headers.timestamp}</code>: Unix seconds when the attempt was sent. Reject deliveries more than {headers.toleranceSeconds} s old: the
          timestamp is signed, so a captured request cannot be replayed later.
        </li>
        <li>
          <code>{headers.delivery}</code>: the delivery id, the same on every retry: delivery is at-least-once, so ignore ids you have seen.
        </li>
        <li>
          <code>{headers.event}</code>: <code>alert.opened</code>, <code>alert.updated</code>, <code>alert.resolved</code> or <code>test</code>.
        </li>
      </ul>
      <pre className="json code-sample">{code}</pre>
    </div>
  );
}
