import { type AuditFilter, auditRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { downloadBlob } from '@/lib/download';
import { useApi } from '@/lib/services-context';

/** Downloads the CSV of every entry the filter selects (the API streams it). */
export function useExportAudit() {
  const api = useApi();
  return useMutation({
    mutationFn: async (filter: AuditFilter) =>
      downloadBlob('audit.csv', await api.blob(auditRoutes.export, { query: filter })),
  });
}
