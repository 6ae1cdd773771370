import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { LiveIndicator } from "./_components/LiveIndicator";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Toolwatch",
  description: "Every tool of every MCP server in your fleet, and every change to them.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <header className="topbar">
            <Link href="/" className="brand">
              Toolwatch
            </Link>
            <nav aria-label="Main">
              <Link href="/">Fleet</Link>
            </nav>
            <span className="team">Team: demo</span>
            <LiveIndicator />
          </header>
          <main>{children}</main>
        </Providers>
      </body>
    </html>
  );
}
