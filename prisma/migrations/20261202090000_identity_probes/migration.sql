-- AlterEnum
ALTER TYPE "alert_kind" ADD VALUE 'identity_divergence';

-- CreateTable
CREATE TABLE "team_identity_probe_settings" (
    "tenant_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "identities" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "interval_minutes" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "team_identity_probe_settings_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateTable
CREATE TABLE "server_identity_probe_settings" (
    "server_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "enabled" BOOLEAN,
    "identities" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "server_identity_probe_settings_pkey" PRIMARY KEY ("server_id")
);

-- CreateTable
CREATE TABLE "identity_probe" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "identity" TEXT NOT NULL,
    "probed_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "list_hash" TEXT,
    "reference_hash" TEXT,
    "tool_count" INTEGER,
    "lists" JSONB,
    "error" JSONB,

    CONSTRAINT "identity_probe_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "server_identity_probe_settings_tenant_id_idx" ON "server_identity_probe_settings"("tenant_id");

-- CreateIndex
CREATE INDEX "identity_probe_tenant_id_server_id_idx" ON "identity_probe"("tenant_id", "server_id");

-- CreateIndex
CREATE UNIQUE INDEX "identity_probe_server_id_identity_key" ON "identity_probe"("server_id", "identity");

-- AddForeignKey
ALTER TABLE "team_identity_probe_settings" ADD CONSTRAINT "team_identity_probe_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_identity_probe_settings" ADD CONSTRAINT "server_identity_probe_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_identity_probe_settings" ADD CONSTRAINT "server_identity_probe_settings_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "identity_probe" ADD CONSTRAINT "identity_probe_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "identity_probe" ADD CONSTRAINT "identity_probe_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;
