-- The worker's hot path in one round trip per write (issue 12). Prisma interactive transactions
-- cost 6–12 round trips per listing and starve the pool at fleet size; these functions run as one
-- statement each, in that statement's own transaction, with the same locks and lease fencing.

-- Whether a snapshot has been judged against the baselines (an unchanged re-list of an evaluated
-- snapshot needs no evaluation; one that a dead worker left unjudged gets its catch-up).
ALTER TABLE "snapshot" ADD COLUMN "evaluated" BOOLEAN NOT NULL DEFAULT false;
UPDATE "snapshot" SET "evaluated" = true;

-- Latest snapshot of a server with a tie-break, so equal taken_at values order the same everywhere.
CREATE INDEX IF NOT EXISTS "snapshot_server_latest_idx" ON "snapshot" ("server_id", "taken_at" DESC, "id" DESC);

-- Fencing: the lease row must name this worker and be unexpired; FOR SHARE keeps a takeover from
-- committing while the write is in flight. NULL worker = unfenced (tests, CLI).
CREATE OR REPLACE FUNCTION tw_hold_lease(p_server uuid, p_worker text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF p_worker IS NULL THEN RETURN true; END IF;
  PERFORM 1 FROM server_lease WHERE server_id = p_server AND worker_id = p_worker AND expires_at > now() FOR SHARE;
  RETURN FOUND;
END $$;

-- An unchanged re-list: moves "last confirmed" of the latest snapshot, touches the session and
-- notifies, all in this one statement. When the list changed it returns what the caller needs to
-- summarise the change: the latest snapshot's id, server version, its (name, hash) pairs in order
-- and the definitions of the tools that are not in the new list.
CREATE OR REPLACE FUNCTION tw_confirm_listing(p jsonb)
RETURNS TABLE (outcome text, snapshot_id uuid, evaluated boolean, server_version text, prev_keys jsonb, gone jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_at timestamptz := (p->>'at')::timestamptz;
  v_id uuid; v_hash text; v_eval boolean; v_version text; v_ids uuid[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(v_server::text));
  IF NOT tw_hold_lease(v_server, p->>'worker') THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::uuid, NULL::boolean, NULL::text, NULL::jsonb, NULL::jsonb; RETURN;
  END IF;
  SELECT s.id, s.content_hash, s.evaluated, s.server_version, s.tool_version_ids INTO v_id, v_hash, v_eval, v_version, v_ids
    FROM snapshot s WHERE s.tenant_id = v_tenant AND s.server_id = v_server ORDER BY s.taken_at DESC, s.id DESC LIMIT 1;
  IF v_id IS NULL THEN
    RETURN QUERY SELECT 'changed'::text, NULL::uuid, NULL::boolean, NULL::text, '[]'::jsonb, '[]'::jsonb; RETURN;
  END IF;
  IF v_hash = p->>'contentHash' THEN
    UPDATE snapshot SET last_confirmed_at = v_at, confirm_count = confirm_count + 1 WHERE id = v_id;
    INSERT INTO server_session (server_id, tenant_id, last_listed_at, warnings, updated_at)
      VALUES (v_server, v_tenant, v_at, CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) END, now())
      ON CONFLICT (server_id) DO UPDATE SET last_listed_at = EXCLUDED.last_listed_at, updated_at = now(),
        warnings = CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) ELSE server_session.warnings END;
    -- The tool-list cache use this listing came through now points at the snapshot it confirmed.
    UPDATE server_cache_use SET snapshot_id = v_id WHERE server_id = v_server AND entry_id = (p->>'cacheEntryId')::uuid;
    PERFORM pg_notify('toolwatch_events', json_build_object('type', 'snapshot:confirmed', 'tenantId', v_tenant, 'serverId', v_server, 'snapshotId', v_id)::text);
    RETURN QUERY SELECT 'confirmed'::text, v_id, v_eval, v_version, NULL::jsonb, NULL::jsonb; RETURN;
  END IF;
  RETURN QUERY
    WITH prev AS (
      SELECT o.ord, tv.name, tv.hash, tv.definition
        FROM unnest(v_ids) WITH ORDINALITY o(id, ord)
        JOIN tool_version tv ON tv.id = o.id AND tv.tenant_id = v_tenant
    )
    SELECT 'changed'::text, v_id, v_eval, v_version,
           COALESCE((SELECT jsonb_agg(jsonb_build_array(prev.name, prev.hash) ORDER BY prev.ord) FROM prev), '[]'::jsonb),
           COALESCE((SELECT jsonb_agg(prev.definition ORDER BY prev.ord) FROM prev
                      WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p->'keys') k WHERE k->>0 = prev.name AND k->>1 = prev.hash)), '[]'::jsonb);
END $$;

-- A changed list: tool versions (content-addressed, set-based), the snapshot, the session and the
-- NOTIFY. `expectedPrev` is the latest snapshot the caller summarised against; if another write
-- got in between, nothing is written and the caller summarises again.
CREATE OR REPLACE FUNCTION tw_record_snapshot(p jsonb)
RETURNS TABLE (outcome text, snapshot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_at timestamptz := (p->>'at')::timestamptz;
  v_latest uuid; v_ids uuid[]; v_id uuid;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(v_server::text));
  -- Shared with other writers, exclusive for retention (lib/snapshots/prune-history.ts).
  PERFORM pg_advisory_xact_lock_shared(hashtext('toolwatch:prune'));
  IF NOT tw_hold_lease(v_server, p->>'worker') THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::uuid; RETURN;
  END IF;
  PERFORM 1 FROM mcp_server WHERE id = v_server AND tenant_id = v_tenant;
  IF NOT FOUND THEN RETURN QUERY SELECT 'server_gone'::text, NULL::uuid; RETURN; END IF;
  SELECT s.id INTO v_latest FROM snapshot s WHERE s.tenant_id = v_tenant AND s.server_id = v_server ORDER BY s.taken_at DESC, s.id DESC LIMIT 1;
  IF v_latest IS DISTINCT FROM (p->>'expectedPrev')::uuid THEN
    RETURN QUERY SELECT 'stale_head'::text, v_latest; RETURN;
  END IF;
  INSERT INTO tool_version (id, tenant_id, hash, name, definition, first_seen_at)
    SELECT gen_random_uuid(), v_tenant, t->>'hash', t->>'name', t->'definition', v_at FROM jsonb_array_elements(p->'tools') t
    ON CONFLICT (tenant_id, hash) DO NOTHING;
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}') INTO v_ids
    FROM jsonb_array_elements_text(p->'order') WITH ORDINALITY o(hash, ord)
    JOIN tool_version tv ON tv.tenant_id = v_tenant AND tv.hash = o.hash;
  v_id := gen_random_uuid();
  INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, protocol_version, era, server_version,
                        server_version_changed, notified, auth_context, cache_entry_id, from_cache, ttl_ms, cache_scope,
                        diagnostics, tool_version_ids, diff_summary, taken_at, last_confirmed_at)
  VALUES (v_id, v_tenant, v_server, p->>'contentHash', (p->>'toolCount')::int, p->>'trigger', p->>'protocolVersion', p->>'era', p->>'serverVersion',
          (p->>'serverVersionChanged')::boolean, (p->>'notified')::boolean, p->>'authContext', (p->>'cacheEntryId')::uuid,
          COALESCE((p->>'fromCache')::boolean, false), (p->>'ttlMs')::int, p->>'cacheScope',
          NULLIF(p->'diagnostics', 'null'::jsonb), v_ids,
          NULLIF(p->'diffSummary', 'null'::jsonb), v_at, v_at);
  INSERT INTO server_session (server_id, tenant_id, last_listed_at, last_change_at, warnings, updated_at)
    VALUES (v_server, v_tenant, v_at, v_at, CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) END, now())
    ON CONFLICT (server_id) DO UPDATE SET last_listed_at = EXCLUDED.last_listed_at, last_change_at = EXCLUDED.last_change_at, updated_at = now(),
      warnings = CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) ELSE server_session.warnings END;
  UPDATE server_cache_use SET snapshot_id = v_id WHERE server_id = v_server AND entry_id = (p->>'cacheEntryId')::uuid;
  PERFORM pg_notify('toolwatch_events', json_build_object('type', 'snapshot:recorded', 'tenantId', v_tenant, 'serverId', v_server, 'snapshotId', v_id)::text);
  RETURN QUERY SELECT 'created'::text, v_id;
END $$;

-- A session state change in one statement: the row, a transition row and a NOTIFY when the
-- status changed, and whether a server_down alert is unresolved (the caller opens or resolves
-- alerts only in the rare transitions that need it). Keys absent from `p` leave columns as they are.
CREATE OR REPLACE FUNCTION tw_update_session(p jsonb)
RETURNS TABLE (outcome text, from_status session_status, to_status session_status, down_open boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_to session_status := (p->>'status')::session_status;
  v_from session_status;
  v_found boolean;
BEGIN
  IF NOT tw_hold_lease(v_server, p->>'worker') THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::session_status, NULL::session_status, NULL::boolean; RETURN;
  END IF;
  SELECT ss.status INTO v_from FROM server_session ss WHERE ss.server_id = v_server AND ss.tenant_id = v_tenant FOR UPDATE;
  v_found := FOUND;
  IF NOT v_found THEN
    PERFORM 1 FROM mcp_server WHERE id = v_server AND tenant_id = v_tenant;
    IF NOT FOUND THEN RETURN QUERY SELECT 'server_gone'::text, NULL::session_status, NULL::session_status, NULL::boolean; RETURN; END IF;
    INSERT INTO server_session (server_id, tenant_id, updated_at) VALUES (v_server, v_tenant, now()) ON CONFLICT (server_id) DO NOTHING;
  END IF;
  UPDATE server_session ss SET
    status = COALESCE(v_to, ss.status),
    status_reason = CASE WHEN v_to IS NOT NULL THEN p->>'reason' ELSE ss.status_reason END,
    protocol_version = CASE WHEN p ? 'protocolVersion' THEN p->>'protocolVersion' ELSE ss.protocol_version END,
    era = CASE WHEN p ? 'era' THEN p->>'era' ELSE ss.era END,
    server_info = COALESCE(NULLIF(p->'serverInfo', 'null'::jsonb), ss.server_info),
    capabilities = COALESCE(NULLIF(p->'capabilities', 'null'::jsonb), ss.capabilities),
    instructions = CASE WHEN p ? 'instructions' THEN p->>'instructions' ELSE ss.instructions END,
    connected_at = CASE WHEN p ? 'connectedAt' THEN (p->>'connectedAt')::timestamptz ELSE ss.connected_at END,
    worker_id = CASE WHEN p ? 'workerId' THEN p->>'workerId' ELSE ss.worker_id END,
    transport_used = CASE WHEN p ? 'transportUsed' THEN p->>'transportUsed' ELSE ss.transport_used END,
    last_error_code = CASE WHEN p ? 'error' THEN p->'error'->>'code' ELSE ss.last_error_code END,
    last_error = CASE WHEN p ? 'error' THEN left(p->'error'->>'message', 4000) ELSE ss.last_error END,
    last_error_at = CASE WHEN jsonb_typeof(p->'error') = 'object' THEN now() ELSE ss.last_error_at END,
    era_verdict = CASE WHEN p ? 'verdict' THEN p->'verdict'->'value' ELSE ss.era_verdict END,
    verdict_for = CASE WHEN p ? 'verdict' THEN p->'verdict'->>'configHash' ELSE ss.verdict_for END,
    era_verdict_at = CASE WHEN p ? 'verdict' THEN now() ELSE ss.era_verdict_at END,
    updated_at = now()
  WHERE ss.server_id = v_server;
  IF v_to IS NULL OR v_to IS NOT DISTINCT FROM v_from THEN
    RETURN QUERY SELECT 'ok'::text, v_from, NULL::session_status, NULL::boolean; RETURN;
  END IF;
  INSERT INTO session_transition (tenant_id, server_id, from_status, to_status, reason, at) VALUES (v_tenant, v_server, v_from, v_to, p->>'reason', now());
  PERFORM pg_notify('toolwatch_events', json_build_object('type', 'session:statusChanged', 'tenantId', v_tenant, 'serverId', v_server, 'status', v_to)::text);
  RETURN QUERY SELECT 'ok'::text, v_from, v_to,
    EXISTS (SELECT 1 FROM alert a WHERE a.tenant_id = v_tenant AND a.server_id = v_server AND a.dedupe_key = 'server_down:server' AND a.status <> 'resolved');
END $$;
