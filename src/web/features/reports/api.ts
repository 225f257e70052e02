import { useMutation, useQuery } from '@tanstack/react-query';
import type { CreateReportAnswer, CreateReportInput, ReportTarget } from '#shared/schemas/reports.ts';
import { apiFetch } from '#web/lib/api.ts';

export function useReportTarget(userId: string) {
  return useQuery({
    queryKey: ['reports', 'target', userId],
    queryFn: ({ signal }) => apiFetch<ReportTarget>(`/api/reports/targets/${encodeURIComponent(userId)}`, { signal }),
    retry: false,
  });
}

export function useCreateReport() {
  return useMutation({
    mutationFn: (input: CreateReportInput) =>
      apiFetch<CreateReportAnswer>('/api/reports', { method: 'POST', body: input }),
  });
}
