import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes, type ScalingRule, type ScalingRuleDraft } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function addScalingRule(api: ApiClient, groupId: string, body: ScalingRuleDraft): Promise<ScalingRule> {
  return api.call(nodeGroupRoutes.addRule, { params: { id: groupId }, body });
}

export function useAddScalingRule(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScalingRuleDraft) => addScalingRule(api, groupId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
  });
}
