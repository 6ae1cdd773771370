"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useMeQuery } from "@/app/_hooks/queries";
import { CommandPalette, useCommandPaletteShortcut } from "./finder/CommandPalette";
import { NoTeam } from "./NoTeam";
import { TopBar } from "./TopBar";

/** Share links are read by people outside the team: nothing on them leads into the app. */
const isSharePage = (pathname: string) => pathname.startsWith("/share/");
/** The audit rules' pages are the repository's own docs (docs/rules/), with no team data in them. */
const isRulesPage = (pathname: string) => pathname === "/rules" || pathname.startsWith("/rules/");
const isPublic = (pathname: string) => pathname === "/login" || pathname.startsWith("/invite/") || isSharePage(pathname);

/** The search palette's state and its shortcut (Ctrl/⌘-K), for a signed-in user with a team. */
function useSearchPalette(hasTeam: boolean) {
  const [searching, setSearching] = useState(false);
  const openSearch = useCallback(() => setSearching(hasTeam), [hasTeam]);
  const closeSearch = useCallback(() => setSearching(false), []);
  useCommandPaletteShortcut(openSearch);
  return { searching, openSearch, closeSearch };
}

/** The header of a public page: the brand, linking home. */
function PublicHeader() {
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        Toolwatch
      </Link>
    </header>
  );
}

/**
 * The frame of every page. Public pages (sign-in, invitation links, share links) get a plain header;
 * the rules' pages are public too, with the top bar for a signed-in reader (RulesFrame); every other
 * page needs a signed-in user (else /login?next=…) and a team (else "create your team").
 */
export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  if (isSharePage(pathname)) {
    return (
      <>
        <header className="topbar">
          <span className="brand">Toolwatch</span>
          <span className="topbar-note">Shared view · read-only</span>
        </header>
        <main>{children}</main>
      </>
    );
  }
  if (isRulesPage(pathname)) return <RulesFrame>{children}</RulesFrame>;
  if (isPublic(pathname)) {
    return (
      <>
        <PublicHeader />
        <main>{children}</main>
      </>
    );
  }
  return <SignedIn pathname={pathname}>{children}</SignedIn>;
}

/**
 * The rules' pages are public, and their content never waits for the session: it is in the first
 * response, so an unknown rule is a real 404 (behind the sign-in frame notFound() streamed after a
 * 200). A reader who is signed in still gets the app's top bar and search once the session is known.
 */
function RulesFrame({ children }: { children: ReactNode }) {
  const { data: me } = useMeQuery();
  const { searching, openSearch, closeSearch } = useSearchPalette(Boolean(me?.team));
  return (
    <>
      {me?.team ? <TopBar me={me} onSearch={openSearch} /> : <PublicHeader />}
      <main>{children}</main>
      {me?.team ? <CommandPalette open={searching} onClose={closeSearch} /> : null}
    </>
  );
}

function SignedIn({ pathname, children }: { pathname: string; children: ReactNode }) {
  const router = useRouter();
  const { data: me, error, isPending, refetch } = useMeQuery();
  const signedOut = me === null;
  const { searching, openSearch, closeSearch } = useSearchPalette(Boolean(me?.team));
  useEffect(() => {
    if (!signedOut) return;
    const here = `${window.location.pathname}${window.location.search}`;
    router.replace(here === "/" ? "/login" : `/login?next=${encodeURIComponent(here)}`);
  }, [signedOut, router]);

  if (isPending || signedOut) {
    return (
      <>
        <header className="topbar">
          <span className="brand">Toolwatch</span>
        </header>
        <main>
          <p aria-busy="true" className="muted">
            {signedOut ? "Redirecting to sign in…" : "Loading…"}
          </p>
        </main>
      </>
    );
  }
  if (error) {
    return (
      <main>
        <p role="alert">
          Could not reach Toolwatch: {error.message}{" "}
          <button type="button" className="button small" onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      </main>
    );
  }
  return (
    <>
      <TopBar me={me} onSearch={openSearch} />
      <main>{me.team || pathname === "/teams/new" ? children : <NoTeam />}</main>
      {me.team ? <CommandPalette open={searching} onClose={closeSearch} /> : null}
    </>
  );
}
