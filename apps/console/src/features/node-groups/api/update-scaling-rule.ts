import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes, type ScalingRule, type ScalingRuleDraft } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

/** Replaces the rule (the enabled toggle sends the whole rule with `enabled` flipped). */
export function updateScalingRule(
  api: ApiClient,
  groupId: string,
  ruleId: string,
  body: ScalingRuleDraft,
): Promise<ScalingRule> {
  return api.call(nodeGroupRoutes.updateRule, { params: { id: groupId, ruleId }, body });
}

export function useUpdateScalingRule(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ruleId, body }: { ruleId: string; body: ScalingRuleDraft }) =>
      updateScalingRule(api, groupId, ruleId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
  });
}
