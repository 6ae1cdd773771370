"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { ServerForm } from "@/app/_components/server-form/ServerForm";
import { useCan } from "@/app/_hooks/queries";
import { FLEET_PATH } from "@/app/_lib/links";

export function NewServerPage() {
  const router = useRouter();
  const can = useCan();
  return (
    <section className="narrow" aria-labelledby="new-server-heading">
      <p>
        <Link href={FLEET_PATH}>← Fleet</Link>
      </p>
      <h1 id="new-server-heading">Add a server</h1>
      {can("server:write") ? (
        <>
          <p className="muted">
            Several servers in a Claude, Cursor, VS Code, Windsurf or Zed config? <Link href="/servers/import">Import from a config</Link>
          </p>
          <ServerForm server={null} onSaved={(id) => router.push(`/servers/${id}`)} onCancel={() => router.push(FLEET_PATH)} />
        </>
      ) : (
        <p role="alert">Your role may not add servers. Ask a team admin.</p>
      )}
    </section>
  );
}
