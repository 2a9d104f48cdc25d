import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function deleteScalingRule(api: ApiClient, groupId: string, ruleId: string): Promise<void> {
  return api.call(nodeGroupRoutes.deleteRule, { params: { id: groupId, ruleId } });
}

export function useDeleteScalingRule(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ruleId: string) => deleteScalingRule(api, groupId, ruleId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
  });
}
