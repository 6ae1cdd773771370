import { NextResponse, type NextRequest } from "next/server";
import { loadEnv } from "./lib/env";
import { newNonce, pageSecurityHeaders, servedOverHttps } from "./lib/security/page-headers";

// Every page gets a fresh nonce and a Content-Security-Policy naming it (lib/security/page-headers.ts).
// Next reads the nonce from the request's CSP header and puts it on its own scripts, which is why
// pages are rendered per request (app/layout.tsx). API routes, static files and prefetches are
// left out (see config.matcher); API responses carry their own strict CSP (next.config.js).
export function proxy(request: NextRequest): NextResponse {
  const env = loadEnv();
  const headers = pageSecurityHeaders({
    nonce: newNonce(),
    host: request.headers.get("host"),
    https: servedOverHttps({ protocol: request.nextUrl.protocol, headers: request.headers, trustProxy: env.TOOLWATCH_TRUST_PROXY, baseUrl: env.TOOLWATCH_BASE_URL }),
    dev: process.env.NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico|socket.io/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
