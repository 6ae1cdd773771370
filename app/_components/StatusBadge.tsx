export const STATUS_LABELS: Record<string, string> = {
  pending: "pending",
  connecting: "connecting",
  live: "live",
  polling: "polling",
  degraded: "degraded",
  down: "down",
  stopped: "stopped",
  auth_required: "sign-in required",
};

export function StatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  return (
    <span className={`badge status-${STATUS_LABELS[status] ? status : "unknown"}`} title={reason ?? undefined}>
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}
