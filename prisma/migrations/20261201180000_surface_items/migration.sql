-- Prompts, resources, resource templates and server instructions (issue 15): stored as further
-- kinds of content-addressed item beside tools, referenced from the snapshot in their own array so
-- every tool query (history, name index, cross-server rules) is untouched.

-- AlterTable
ALTER TABLE "tool_version" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'tool';

-- AlterTable
ALTER TABLE "snapshot" ADD COLUMN "surface_tracked" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "surface_version_ids" UUID[] DEFAULT ARRAY[]::UUID[];

-- CreateIndex
CREATE INDEX "snapshot_surface_version_ids_idx" ON "snapshot" USING GIN ("surface_version_ids");

-- The listing write path (20261201150100_listing_write_path) learns the surface. An unchanged
-- re-list is still one statement: the content hash covers tools and surface together. A changed
-- one also returns the previous surface's keys and the definitions of the items that are gone.
DROP FUNCTION IF EXISTS tw_confirm_listing(jsonb);
CREATE FUNCTION tw_confirm_listing(p jsonb)
RETURNS TABLE (outcome text, snapshot_id uuid, evaluated boolean, server_version text, prev_keys jsonb, gone jsonb,
               prev_surface_tracked boolean, prev_surface_keys jsonb, surface_gone jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_at timestamptz := (p->>'at')::timestamptz;
  v_id uuid; v_hash text; v_eval boolean; v_version text; v_ids uuid[]; v_sids uuid[]; v_tracked boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(v_server::text));
  IF NOT tw_hold_lease(v_server, p->>'worker') THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::uuid, NULL::boolean, NULL::text, NULL::jsonb, NULL::jsonb, NULL::boolean, NULL::jsonb, NULL::jsonb; RETURN;
  END IF;
  SELECT s.id, s.content_hash, s.evaluated, s.server_version, s.tool_version_ids, COALESCE(s.surface_version_ids, '{}'), s.surface_tracked
    INTO v_id, v_hash, v_eval, v_version, v_ids, v_sids, v_tracked
    FROM snapshot s WHERE s.tenant_id = v_tenant AND s.server_id = v_server ORDER BY s.taken_at DESC, s.id DESC LIMIT 1;
  IF v_id IS NULL THEN
    RETURN QUERY SELECT 'changed'::text, NULL::uuid, NULL::boolean, NULL::text, '[]'::jsonb, '[]'::jsonb, false, '[]'::jsonb, '[]'::jsonb; RETURN;
  END IF;
  IF v_hash = p->>'contentHash' THEN
    -- Same hash, so the same (possibly empty) surface: a listing that looked at it marks it tracked.
    UPDATE snapshot SET last_confirmed_at = v_at, confirm_count = confirm_count + 1,
                        surface_tracked = surface_tracked OR COALESCE((p->>'surfaceTracked')::boolean, false) WHERE id = v_id;
    INSERT INTO server_session (server_id, tenant_id, last_listed_at, warnings, updated_at)
      VALUES (v_server, v_tenant, v_at, CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) END, now())
      ON CONFLICT (server_id) DO UPDATE SET last_listed_at = EXCLUDED.last_listed_at, updated_at = now(),
        warnings = CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) ELSE server_session.warnings END;
    UPDATE server_cache_use SET snapshot_id = v_id WHERE server_id = v_server AND entry_id = (p->>'cacheEntryId')::uuid;
    PERFORM pg_notify('toolwatch_events', json_build_object('type', 'snapshot:confirmed', 'tenantId', v_tenant, 'serverId', v_server, 'snapshotId', v_id)::text);
    RETURN QUERY SELECT 'confirmed'::text, v_id, v_eval, v_version, NULL::jsonb, NULL::jsonb, NULL::boolean, NULL::jsonb, NULL::jsonb; RETURN;
  END IF;
  RETURN QUERY
    WITH prev AS (
      SELECT o.ord, tv.name, tv.hash, tv.definition
        FROM unnest(v_ids) WITH ORDINALITY o(id, ord)
        JOIN tool_version tv ON tv.id = o.id AND tv.tenant_id = v_tenant
    ), prev_surface AS (
      SELECT o.ord, tv.kind, tv.name, tv.hash, tv.definition
        FROM unnest(v_sids) WITH ORDINALITY o(id, ord)
        JOIN tool_version tv ON tv.id = o.id AND tv.tenant_id = v_tenant
    )
    SELECT 'changed'::text, v_id, v_eval, v_version,
           COALESCE((SELECT jsonb_agg(jsonb_build_array(prev.name, prev.hash) ORDER BY prev.ord) FROM prev), '[]'::jsonb),
           COALESCE((SELECT jsonb_agg(prev.definition ORDER BY prev.ord) FROM prev
                      WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p->'keys') k WHERE k->>0 = prev.name AND k->>1 = prev.hash)), '[]'::jsonb),
           v_tracked,
           COALESCE((SELECT jsonb_agg(jsonb_build_array(ps.kind, ps.name, ps.hash) ORDER BY ps.ord) FROM prev_surface ps), '[]'::jsonb),
           COALESCE((SELECT jsonb_agg(jsonb_build_object('kind', ps.kind, 'name', ps.name, 'hash', ps.hash, 'definition', ps.definition) ORDER BY ps.ord) FROM prev_surface ps
                      WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p->'surfaceKeys') k WHERE k->>1 = ps.name AND k->>2 = ps.hash)), '[]'::jsonb);
END $$;

CREATE OR REPLACE FUNCTION tw_record_snapshot(p jsonb)
RETURNS TABLE (outcome text, snapshot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_at timestamptz := (p->>'at')::timestamptz;
  v_latest uuid; v_ids uuid[]; v_sids uuid[]; v_id uuid;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(v_server::text));
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
  INSERT INTO tool_version (id, tenant_id, hash, name, kind, definition, first_seen_at)
    SELECT gen_random_uuid(), v_tenant, t->>'hash', t->>'name', COALESCE(t->>'kind', 'tool'), t->'definition', v_at
      FROM (SELECT * FROM jsonb_array_elements(p->'tools') UNION ALL SELECT * FROM jsonb_array_elements(COALESCE(p->'surface', '[]'::jsonb))) AS items(t)
    ON CONFLICT (tenant_id, hash) DO NOTHING;
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}') INTO v_ids
    FROM jsonb_array_elements_text(p->'order') WITH ORDINALITY o(hash, ord)
    JOIN tool_version tv ON tv.tenant_id = v_tenant AND tv.hash = o.hash;
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}') INTO v_sids
    FROM jsonb_array_elements_text(COALESCE(p->'surfaceOrder', '[]'::jsonb)) WITH ORDINALITY o(hash, ord)
    JOIN tool_version tv ON tv.tenant_id = v_tenant AND tv.hash = o.hash;
  v_id := gen_random_uuid();
  INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, protocol_version, era, server_version,
                        server_version_changed, notified, auth_context, cache_entry_id, from_cache, ttl_ms, cache_scope,
                        diagnostics, tool_version_ids, surface_version_ids, surface_tracked, diff_summary, taken_at, last_confirmed_at)
  VALUES (v_id, v_tenant, v_server, p->>'contentHash', (p->>'toolCount')::int, p->>'trigger', p->>'protocolVersion', p->>'era', p->>'serverVersion',
          (p->>'serverVersionChanged')::boolean, (p->>'notified')::boolean, p->>'authContext', (p->>'cacheEntryId')::uuid,
          COALESCE((p->>'fromCache')::boolean, false), (p->>'ttlMs')::int, p->>'cacheScope',
          NULLIF(p->'diagnostics', 'null'::jsonb), v_ids, v_sids, COALESCE((p->>'surfaceTracked')::boolean, false),
          NULLIF(p->'diffSummary', 'null'::jsonb), v_at, v_at);
  INSERT INTO server_session (server_id, tenant_id, last_listed_at, last_change_at, warnings, updated_at)
    VALUES (v_server, v_tenant, v_at, v_at, CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) END, now())
    ON CONFLICT (server_id) DO UPDATE SET last_listed_at = EXCLUDED.last_listed_at, last_change_at = EXCLUDED.last_change_at, updated_at = now(),
      warnings = CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) ELSE server_session.warnings END;
  UPDATE server_cache_use SET snapshot_id = v_id WHERE server_id = v_server AND entry_id = (p->>'cacheEntryId')::uuid;
  PERFORM pg_notify('toolwatch_events', json_build_object('type', 'snapshot:recorded', 'tenantId', v_tenant, 'serverId', v_server, 'snapshotId', v_id)::text);
  RETURN QUERY SELECT 'created'::text, v_id;
END $$;
