-- Issue 12: the worker stores a listing's new versions without counting their context tokens and
-- counts them in the judgement lane (lib/context-tokens/fill-context-tokens.ts), which looks up
-- the server's snapshots still uncounted. Those are few and short-lived, so a partial index holds
-- only them: a server with none costs one probe of an almost empty index, and the listing's insert
-- into snapshot pays for an entry only until its tokens are summed.
CREATE INDEX "snapshot_uncounted_idx" ON "snapshot" ("tenant_id", "server_id") WHERE context_tokens IS NULL;
