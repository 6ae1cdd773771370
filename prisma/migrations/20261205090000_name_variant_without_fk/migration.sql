-- Issue 12: a new 50-tool server writes ~500 one-deletion variants of its tool names; the foreign
-- key to tenant ran one key-share check per row (~40 % of the insert, EXPLAIN ANALYZE at 258,000
-- rows). The table is a derived index read only under its own tenant_id, so it keeps no foreign
-- key: a team's rows go with the team through this trigger instead. (A variant written by an
-- evaluation racing the team's deletion would outlive it, unreadable by anyone: tenant ids are
-- never reused.)
ALTER TABLE "tool_name_variant" DROP CONSTRAINT "tool_name_variant_tenant_id_fkey";

CREATE FUNCTION "tool_name_variant_on_tenant_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "tool_name_variant" WHERE "tenant_id" = OLD."id";
  RETURN OLD;
END
$$;

CREATE TRIGGER "tool_name_variant_on_tenant_delete"
  AFTER DELETE ON "tenant"
  FOR EACH ROW EXECUTE FUNCTION "tool_name_variant_on_tenant_delete"();
