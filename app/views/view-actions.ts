"use client";

import { useQueryClient } from "@tanstack/react-query";
import { viewSearchString } from "@/lib/views/view-url";
import { api } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import type { ViewDto } from "@/app/_hooks/view-queries";
import { fleetHref } from "@/app/_lib/links";

/** The fleet showing a view: its filters in the URL and its id, so the page names it and notices edits. */
export const openViewHref = (view: Pick<ViewDto, "id" | "filters">) => fleetHref(viewSearchString(view.filters, { view: view.id }));

export const viewHref = (id: string) => `/views/${encodeURIComponent(id)}`;

/** PATCH and DELETE a view, then refetch the views (pinning one unpins another, so the whole list). */
export function useViewMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.views() });
  return {
    update: async (id: string, patch: { name?: string; pinned?: boolean }) => {
      const view = await api<ViewDto>(`/api/v1/views/${encodeURIComponent(id)}`, { method: "PATCH", body: patch });
      await refresh();
      return view;
    },
    remove: async (id: string) => {
      await api(`/api/v1/views/${encodeURIComponent(id)}`, { method: "DELETE" });
      queryClient.removeQueries({ queryKey: queryKeys.view(id), exact: true });
      await refresh();
    },
  };
}
