"use client";

import Link from "next/link";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { AlertSummary } from "@/lib/alerts/alert-dto";
import { api } from "@/app/_hooks/api";
import { VisibleText } from "@/app/_components/VisibleText";
import { alertHref } from "@/app/_lib/links";

type Toast = { key: number; href: string; title: string; text: string };

/** Alerts that open within this window share one toast: a sweep that opens 40 alerts is one "40 new alerts". */
export const TOAST_COALESCE_MS = 1_000;
const TOAST_LIFETIME_MS = 10_000;
const MAX_TOASTS = 3;

const AlertToastContext = createContext<(alertId: string) => void>(() => undefined);
/** Call with the id of an alert that just opened for the active team (the realtime bridge does). */
export const useAlertOpened = () => useContext(AlertToastContext);

/**
 * Toasts for alerts that open while the page is open. Bursts are coalesced; at most MAX_TOASTS stay
 * on screen; the region is aria-live="polite" so a screen reader hears them without interruption.
 */
export function AlertToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const pending = useRef<Set<string>>(new Set());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const counter = useRef(0);

  const push = useCallback((toast: Omit<Toast, "key">) => {
    const key = ++counter.current;
    setToasts((list) => [...list, { ...toast, key }].slice(-MAX_TOASTS));
    setTimeout(() => setToasts((list) => list.filter((t) => t.key !== key)), TOAST_LIFETIME_MS);
  }, []);

  const flush = useCallback(async () => {
    timer.current = null;
    const ids = [...pending.current];
    pending.current.clear();
    if (ids.length > 1) {
      push({ href: "/alerts?status=open", title: `${ids.length} new alerts`, text: "Open the alert inbox" });
      return;
    }
    // One alert: its title, read through the API (the event carries ids only).
    const alert = await api<{ alert: AlertSummary }>(`/api/v1/alerts/${encodeURIComponent(ids[0]!)}`).then((d) => d.alert, () => null);
    if (alert && alert.status !== "resolved") push({ href: alertHref(alert.id), title: "New alert", text: alert.title });
  }, [push]);

  const opened = useCallback(
    (alertId: string) => {
      pending.current.add(alertId);
      timer.current ??= setTimeout(() => void flush(), TOAST_COALESCE_MS);
    },
    [flush],
  );
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const dismiss = (key: number) => setToasts((list) => list.filter((t) => t.key !== key));
  return (
    <AlertToastContext.Provider value={opened}>
      {children}
      <section className="toasts" aria-label="Notifications">
        <div role="status" aria-live="polite" aria-atomic="false" className="toast-stack">
          {toasts.map((t) => (
            <div key={t.key} className="toast" data-testid="alert-toast">
              <div className="toast-body">
                <strong>{t.title}</strong>{" "}
                <Link href={t.href} onClick={() => dismiss(t.key)}>
                  <VisibleText text={t.text} />
                </Link>
              </div>
              <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(t.key)}>
                ×
              </button>
            </div>
          ))}
        </div>
      </section>
    </AlertToastContext.Provider>
  );
}

