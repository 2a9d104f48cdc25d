import { type NodeGroupUpdateInput, nodeGroupRoutes, type ScalingRuleDraft } from '@streamcloud/contract';
import { savesResource } from '../resource-writes';
import { useRouteMutation } from '../route-mutation';
import { nodeGroupKeys } from './keys';

/** Changes only the fields sent (the group form, and the scaling toggle that sends `{scalable}`). */
export function useUpdateNodeGroup() {
  return useRouteMutation(nodeGroupRoutes.update, {
    toRequest: ({ id, body }: { id: string; body: NodeGroupUpdateInput }) => ({ params: { id }, body }),
    ...savesResource(nodeGroupKeys),
  });
}

/** Replaces a rule (the rule form, and the enabled toggle that sends the whole rule with `enabled` flipped). */
export function useUpdateScalingRule(groupId: string) {
  return useRouteMutation(nodeGroupRoutes.updateRule, {
    toRequest: ({ ruleId, body }: { ruleId: string; body: ScalingRuleDraft }) => ({
      params: { id: groupId, ruleId },
      body,
    }),
    invalidates: () => [nodeGroupKeys.detail(groupId)],
  });
}
