-- Issue 12: the lookups that turn a listing's hashes into tool_version ids (and sum their context
-- tokens) ran as a hash join over the team's whole tool_version table once PL/pgSQL switched to a
-- generic plan: 31 ms per listing at 2,000 servers x 50 tools, growing with the table (29 % of the
-- sweep's Postgres time, bench/RESULTS.md run P). A LATERAL subquery with LIMIT 1 is not pulled up
-- into a join, so each hash is one probe of the (tenant_id, hash) unique index whatever the plan.
-- (tenant_id, hash) is unique, so LIMIT 1 changes no result.
CREATE OR REPLACE FUNCTION tw_record_snapshot(p jsonb)
RETURNS TABLE (outcome text, snapshot_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_tenant uuid := (p->>'tenantId')::uuid;
  v_server uuid := (p->>'serverId')::uuid;
  v_at timestamptz := (p->>'at')::timestamptz;
  v_latest uuid; v_ids uuid[]; v_sids uuid[]; v_id uuid; v_uncounted bigint; v_tokens bigint;
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
  INSERT INTO tool_version (id, tenant_id, hash, name, kind, definition, first_seen_at, context_tokens)
    SELECT gen_random_uuid(), v_tenant, t->>'hash', t->>'name', COALESCE(t->>'kind', 'tool'), t->'definition', v_at, (t->>'contextTokens')::int
      FROM (SELECT * FROM jsonb_array_elements(p->'tools') UNION ALL SELECT * FROM jsonb_array_elements(COALESCE(p->'surface', '[]'::jsonb))) AS items(t)
    ON CONFLICT (tenant_id, hash) DO NOTHING;
  -- The sums ride on the lookups that build the id arrays: no extra read per item.
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}'), count(*) - count(tv.context_tokens), COALESCE(sum(tv.context_tokens), 0)
    INTO v_ids, v_uncounted, v_tokens
    FROM jsonb_array_elements_text(p->'order') WITH ORDINALITY o(hash, ord)
    CROSS JOIN LATERAL (SELECT v.id, v.context_tokens FROM tool_version v WHERE v.tenant_id = v_tenant AND v.hash = o.hash LIMIT 1) tv;
  SELECT COALESCE(array_agg(tv.id ORDER BY o.ord), '{}'), v_uncounted + count(*) - count(tv.context_tokens), v_tokens + COALESCE(sum(tv.context_tokens), 0)
    INTO v_sids, v_uncounted, v_tokens
    FROM jsonb_array_elements_text(COALESCE(p->'surfaceOrder', '[]'::jsonb)) WITH ORDINALITY o(hash, ord)
    CROSS JOIN LATERAL (SELECT v.id, v.context_tokens FROM tool_version v WHERE v.tenant_id = v_tenant AND v.hash = o.hash LIMIT 1) tv;
  v_id := gen_random_uuid();
  INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, protocol_version, era, server_version,
                        server_version_changed, notified, auth_context, cache_entry_id, from_cache, ttl_ms, cache_scope,
                        diagnostics, tool_version_ids, surface_version_ids, surface_tracked, diff_summary, taken_at, last_confirmed_at,
                        context_tokens)
  VALUES (v_id, v_tenant, v_server, p->>'contentHash', (p->>'toolCount')::int, p->>'trigger', p->>'protocolVersion', p->>'era', p->>'serverVersion',
          (p->>'serverVersionChanged')::boolean, (p->>'notified')::boolean, p->>'authContext', (p->>'cacheEntryId')::uuid,
          COALESCE((p->>'fromCache')::boolean, false), (p->>'ttlMs')::int, p->>'cacheScope',
          NULLIF(p->'diagnostics', 'null'::jsonb), v_ids, v_sids, COALESCE((p->>'surfaceTracked')::boolean, false),
          NULLIF(p->'diffSummary', 'null'::jsonb), v_at, v_at,
          CASE WHEN v_uncounted = 0 THEN LEAST(v_tokens, 2147483647)::int END);
  INSERT INTO server_session (server_id, tenant_id, last_listed_at, last_change_at, warnings, updated_at)
    VALUES (v_server, v_tenant, v_at, v_at, CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) END, now())
    ON CONFLICT (server_id) DO UPDATE SET last_listed_at = EXCLUDED.last_listed_at, last_change_at = EXCLUDED.last_change_at, updated_at = now(),
      warnings = CASE WHEN (p->'setWarnings')::boolean THEN NULLIF(p->'warnings', 'null'::jsonb) ELSE server_session.warnings END;
  UPDATE server_cache_use SET snapshot_id = v_id WHERE server_id = v_server AND entry_id = (p->>'cacheEntryId')::uuid;
  PERFORM pg_notify('toolwatch_events', json_build_object('type', 'snapshot:recorded', 'tenantId', v_tenant, 'serverId', v_server, 'snapshotId', v_id)::text);
  RETURN QUERY SELECT 'created'::text, v_id;
END $$;
