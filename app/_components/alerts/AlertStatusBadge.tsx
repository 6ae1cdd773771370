import type { AlertStatusName } from "@/lib/alerts/alert-dto";
import { STATUS_LABELS } from "./labels";

export function AlertStatusBadge({ status }: { status: AlertStatusName }) {
  return (
    <span className={`badge alert-status alert-status-${status}`} data-testid="alert-status" data-status={status}>
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}
