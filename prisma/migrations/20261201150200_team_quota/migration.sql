-- Per-team quotas an instance administrator sets (issue 12); absent values use the instance defaults.
CREATE TABLE "team_quota" (
    "tenant_id" UUID NOT NULL,
    "max_servers" INTEGER,
    "min_poll_seconds" INTEGER,
    "listings_per_minute" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" TEXT,

    CONSTRAINT "team_quota_pkey" PRIMARY KEY ("tenant_id")
);

ALTER TABLE "team_quota" ADD CONSTRAINT "team_quota_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
