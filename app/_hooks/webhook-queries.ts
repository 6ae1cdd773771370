"use client";

import { useQuery } from "@tanstack/react-query";
import type { Page, WebhookDeliveryDto, WebhookDto, WebhookWithSecret } from "@/lib/webhooks/types";
import { api } from "./api";
import { queryKeys } from "./queries";

export type { WebhookDeliveryDto, WebhookDto, WebhookWithSecret };

/** Deliveries are sent by the worker, which tells no browser: while a page shows them, poll. */
const POLL_MS = 3_000;

export const useWebhooksQuery = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.webhooks(),
    queryFn: () => api<{ items: WebhookDto[] }>("/api/v1/webhooks"),
    enabled,
    refetchInterval: POLL_MS,
  });

export const useDeliveriesQuery = (webhookId: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.deliveries(webhookId),
    queryFn: () => api<Page<WebhookDeliveryDto>>(`/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries?limit=20`),
    enabled,
    refetchInterval: POLL_MS,
  });
