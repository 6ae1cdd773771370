"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { useOpenAlertCount } from "@/app/_hooks/alert-queries";
import { api } from "@/app/_hooks/api";
import type { Me, Permission } from "@/app/_hooks/types";
import { ThemeToggle } from "./finder/ThemeToggle";
import { LiveIndicator } from "./LiveIndicator";
import { TeamSwitcher } from "./TeamSwitcher";

const LINKS: { href: string; label: string; needs: Permission }[] = [
  { href: "/overview", label: "Overview", needs: "team:read" },
  { href: "/servers", label: "Fleet", needs: "team:read" },
  { href: "/alerts", label: "Alerts", needs: "team:read" },
  { href: "/views", label: "Views", needs: "team:read" },
  { href: "/collisions", label: "Collisions", needs: "team:read" },
  { href: "/team", label: "Team", needs: "team:read" },
  { href: "/team/budget", label: "Budget", needs: "team:read" },
  { href: "/team/cache", label: "Cache", needs: "team:read" },
  { href: "/team/webhooks", label: "Webhooks", needs: "webhook:manage" },
  { href: "/team/keys", label: "API keys", needs: "key:manage" },
  { href: "/team/audit", label: "Audit log", needs: "audit:read" },
];

const isCurrent = (pathname: string, href: string) => {
  if (href === "/overview") return pathname === "/" || pathname === href;
  if (href === "/servers") return pathname.startsWith(href);
  if (href === "/alerts" || href === "/views") return pathname === href || pathname.startsWith(`${href}/`);
  return pathname === href;
};

export function TopBar({ me, onSearch }: { me: Me; onSearch?: () => void }) {
  const pathname = usePathname();
  const links = me.team ? LINKS.filter((l) => me.permissions.includes(l.needs)) : [];
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        Toolwatch
      </Link>
      <TeamSwitcher me={me} />
      <nav aria-label="Main">
        {links.map((l) => (
          <Link key={l.href} href={l.href} aria-current={isCurrent(pathname, l.href) ? "page" : undefined}>
            {l.label}
            {l.href === "/alerts" ? <OpenAlertsBadge /> : null}
          </Link>
        ))}
        {me.user.instanceAdmin ? (
          <Link href="/admin/quotas" className="subtle" aria-current={pathname === "/admin/quotas" ? "page" : undefined}>
            Quotas
          </Link>
        ) : null}
        <Link href="/teams/new" className="subtle" aria-current={pathname === "/teams/new" ? "page" : undefined}>
          + New team
        </Link>
      </nav>
      {me.team && onSearch ? (
        <button type="button" className="button small on-dark search-button" onClick={onSearch} aria-keyshortcuts="Control+K Meta+K" data-testid="open-search">
          Search <kbd>Ctrl K</kbd>
        </button>
      ) : null}
      {me.team ? <LiveIndicator /> : null}
      <ThemeToggle />
      <div className="account">
        <Link href="/account" className="user-email" data-testid="user-email" title={`${me.user.name} — your account`}>
          {me.user.email}
        </Link>
        <SignOutButton />
      </div>
    </header>
  );
}

/** How many alerts wait for someone; nothing when none do. */
function OpenAlertsBadge() {
  const { data } = useOpenAlertCount(null);
  if (!data || data.count === 0) return null;
  const text = data.capped ? `${data.count - 1}+` : String(data.count);
  return (
    <span className="nav-count" data-testid="open-alert-count" aria-label={`${text} open`}>
      {text}
    </span>
  );
}

function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button small on-dark"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await api("/api/auth/sign-out", { method: "POST", body: {} }).catch(() => undefined);
        // A full navigation drops every cached query and the socket with the session.
        window.location.assign("/login");
      }}
    >
      Sign out
    </button>
  );
}
