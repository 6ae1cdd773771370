"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ConfigFormat, ImportResult } from "@/lib/import/types";
import { api } from "./api";
import { queryKeys } from "./queries";

export type ImportRequest = { config: string; format?: ConfigFormat; dryRun: boolean };

/** POST /api/v1/servers/import: a preview with dryRun, else the import; the fleet refetches after one. */
export function useImportMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportRequest) => api<ImportResult>("/api/v1/servers/import", { method: "POST", body }),
    onSuccess: (result) => {
      if (!result.dryRun) void client.invalidateQueries({ queryKey: queryKeys.servers() });
    },
  });
}
