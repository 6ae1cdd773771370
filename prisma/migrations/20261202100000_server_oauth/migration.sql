-- OAuth 2.1 for remote MCP servers (issue 16): a status and an alert kind for servers that need a
-- person to authorize again, the server's auth settings, and per-(team, server) OAuth state.
ALTER TYPE "session_status" ADD VALUE 'auth_required';
ALTER TYPE "alert_kind" ADD VALUE 'auth_required';

-- AlterTable
ALTER TABLE "mcp_server" ADD COLUMN "auth_config" JSONB,
ADD COLUMN "auth_secret_encrypted" TEXT;

-- CreateTable
CREATE TABLE "server_oauth_state" (
    "server_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unauthorized',
    "status_reason" TEXT,
    "client_encrypted" TEXT,
    "tokens_encrypted" TEXT,
    "access_expires_at" TIMESTAMPTZ(3),
    "discovery" JSONB,
    "redirect_uri" TEXT,
    "authorized_at" TIMESTAMPTZ(3),
    "authorized_by" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "server_oauth_state_pkey" PRIMARY KEY ("server_id")
);

-- CreateTable
CREATE TABLE "oauth_pending_authorization" (
    "state_hash" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_hash" TEXT NOT NULL,
    "code_verifier_encrypted" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_pending_authorization_pkey" PRIMARY KEY ("state_hash")
);

-- CreateIndex
CREATE INDEX "server_oauth_state_tenant_id_status_idx" ON "server_oauth_state"("tenant_id", "status");

-- CreateIndex
CREATE INDEX "oauth_pending_authorization_tenant_id_server_id_idx" ON "oauth_pending_authorization"("tenant_id", "server_id");

-- CreateIndex
CREATE INDEX "oauth_pending_authorization_expires_at_idx" ON "oauth_pending_authorization"("expires_at");

-- AddForeignKey
ALTER TABLE "server_oauth_state" ADD CONSTRAINT "server_oauth_state_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server_oauth_state" ADD CONSTRAINT "server_oauth_state_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_pending_authorization" ADD CONSTRAINT "oauth_pending_authorization_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_pending_authorization" ADD CONSTRAINT "oauth_pending_authorization_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_server"("id") ON DELETE CASCADE ON UPDATE CASCADE;
