"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { ServerForm } from "@/app/_components/server-form/ServerForm";
import { ApiError, useCan, useServerQuery } from "@/app/_hooks/queries";
import { ServerProbeOverride } from "./ServerProbeOverride";
import { FLEET_PATH } from "@/app/_lib/links";

export function EditServerPage({ id }: { id: string }) {
  const router = useRouter();
  const can = useCan();
  const { data, error, isPending } = useServerQuery(id);
  if (isPending) return <p aria-busy="true">Loading server…</p>;
  if (error) {
    return (
      <p role="alert">
        {error instanceof ApiError && error.status === 404 ? "Server not found in this team." : `Could not load the server: ${error.message}`} <Link href={FLEET_PATH}>Back to the fleet</Link>
      </p>
    );
  }
  return (
    <section className="narrow" aria-labelledby="edit-server-heading">
      <p>
        <Link href={`/servers/${id}`}>← {data.server.name}</Link>
      </p>
      <h1 id="edit-server-heading">Edit {data.server.name}</h1>
      {can("server:write") ? (
        <>
          <ServerForm server={data.server} onSaved={(saved) => router.push(`/servers/${saved}`)} onCancel={() => router.push(`/servers/${id}`)} />
          <ServerProbeOverride serverId={id} transport={data.server.transport} />
        </>
      ) : (
        <p role="alert">Your role may not edit servers.</p>
      )}
    </section>
  );
}
