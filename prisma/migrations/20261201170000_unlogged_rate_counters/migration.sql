-- Rate-limit counters are written on every API request and sign-in attempt. They need no crash
-- safety (after a crash the windows simply start over), so they skip the write-ahead log: no WAL
-- record and no commit flush per request.
ALTER TABLE "rate_counter" SET UNLOGGED;
ALTER TABLE "auth_rate_limit" SET UNLOGGED;
