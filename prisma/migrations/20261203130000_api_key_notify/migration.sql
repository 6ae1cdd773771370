-- Every web process keeps verified API keys in memory for a short while (lib/auth/api-key-cache.ts)
-- and must forget them the moment a key stops being what it was: revoked, deleted, expired early,
-- its role or team changed. A trigger rather than a NOTIFY in each code path, so that no path that
-- writes api_key (our verbs, better-auth's plugin, an operator's SQL) can leave a stale entry.
-- The last-used touch (last_request) and the plugin's counters do not notify.
CREATE FUNCTION toolwatch_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Ids only; a web process that hears any notice drops its whole cache (changes are rare).
  PERFORM pg_notify('toolwatch_api_keys', CASE WHEN TG_OP = 'TRUNCATE' THEN '*' ELSE OLD.id::text END);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_key_changed
  AFTER UPDATE OF key, enabled, expires_at, metadata, reference_id, name, start ON api_key
  FOR EACH ROW
  WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.enabled IS DISTINCT FROM NEW.enabled
     OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.metadata IS DISTINCT FROM NEW.metadata
     OR OLD.reference_id IS DISTINCT FROM NEW.reference_id OR OLD.name IS DISTINCT FROM NEW.name
     OR OLD.start IS DISTINCT FROM NEW.start)
  EXECUTE FUNCTION toolwatch_api_key_changed();

CREATE TRIGGER api_key_deleted AFTER DELETE ON api_key FOR EACH ROW EXECUTE FUNCTION toolwatch_api_key_changed();

CREATE TRIGGER api_key_truncated AFTER TRUNCATE ON api_key FOR EACH STATEMENT EXECUTE FUNCTION toolwatch_api_key_changed();
