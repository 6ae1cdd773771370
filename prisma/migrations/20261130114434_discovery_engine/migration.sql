-- AlterTable
ALTER TABLE "server_session" ADD COLUMN     "era_verdict" JSONB,
ADD COLUMN     "era_verdict_at" TIMESTAMPTZ(3),
ADD COLUMN     "transport_used" TEXT,
ADD COLUMN     "verdict_for" TEXT,
ADD COLUMN     "warnings" JSONB;

-- AlterTable
ALTER TABLE "snapshot" ADD COLUMN     "diagnostics" JSONB;

-- CreateTable
CREATE TABLE "server_lease" (
    "server_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "worker_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "server_lease_pkey" PRIMARY KEY ("server_id")
);

-- CreateIndex
CREATE INDEX "server_lease_tenant_id_worker_id_idx" ON "server_lease"("tenant_id", "worker_id");

-- CreateIndex
CREATE INDEX "server_lease_worker_id_expires_at_idx" ON "server_lease"("worker_id", "expires_at");

-- AddForeignKey
ALTER TABLE "server_lease" ADD CONSTRAINT "server_lease_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_lease" ADD CONSTRAINT "server_lease_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;
