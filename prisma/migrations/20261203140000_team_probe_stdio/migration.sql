-- Issue 15: a team may turn identity probes on for its stdio servers (off by default: each probe
-- starts the server's process once per identity).
ALTER TABLE "team_identity_probe_settings" ADD COLUMN "probe_stdio" BOOLEAN NOT NULL DEFAULT false;
