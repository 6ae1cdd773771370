-- CreateIndex
CREATE INDEX "webhook_delivery_status_created_at_idx" ON "webhook_delivery"("status", "created_at");
