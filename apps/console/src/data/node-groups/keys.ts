/** Query keys of node groups, narrowest last. */
export const nodeGroupKeys = {
  all: ['node-groups'] as const,
  lists: () => [...nodeGroupKeys.all, 'list'] as const,
  details: () => [...nodeGroupKeys.all, 'detail'] as const,
  detail: (id: string) => [...nodeGroupKeys.details(), id] as const,
  events: (id: string) => [...nodeGroupKeys.detail(id), 'events'] as const,
  persistentNodes: () => [...nodeGroupKeys.all, 'persistent-nodes'] as const,
};
