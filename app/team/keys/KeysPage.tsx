"use client";

import { useState } from "react";
import { useMeQuery } from "@/app/_hooks/queries";
import type { ApiKey } from "@/app/_hooks/types";
import { CreateKeyForm } from "./CreateKeyForm";
import { FreshKey } from "./FreshKey";
import { KeysTable } from "./KeysTable";

export function KeysPage() {
  const { data: me } = useMeQuery();
  const [fresh, setFresh] = useState<(ApiKey & { key: string }) | null>(null);
  if (!me?.team) return null;
  if (!me.permissions.includes("key:manage")) {
    return (
      <section aria-labelledby="keys-heading">
        <h1 id="keys-heading">API keys</h1>
        <p role="alert">Only team owners and admins can manage API keys.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="keys-heading">
      <h1 id="keys-heading">API keys</h1>
      <p className="summary">
        Keys act for team <strong>{me.team.name}</strong> with the role you give them, on the REST API and the CLI (
        <code>Authorization: Bearer …</code>). A key can never have a higher role than yours.
      </p>
      {fresh ? <FreshKey apiKey={fresh} onDone={() => setFresh(null)} /> : null}
      <CreateKeyForm myRole={me.role} onCreated={setFresh} />
      <KeysTable />
    </section>
  );
}
