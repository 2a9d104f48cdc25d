import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { Node } from './nodes.js';
import { defineRoute } from './routes.js';

/** Limits and defaults of node groups and scaling rules (spec sections 5 and 9). */
export const NODE_GROUP_LIMITS = {
  name: 255,
  description: 16384,
  callbackUri: 255,
} as const;

export const SCALING_LIMITS = {
  value: { min: 0, max: 100 },
  duration: { min: 0, max: 300 },
  amount: { min: 1, max: 32 },
  actionTimeout: { min: 0, max: 3600 },
  bandwidthLimitMbps: { min: 0 },
  providerValue: 255,
} as const;

export const SCALING_DEFAULTS = {
  enabled: true,
  actionTimeout: 0,
  bandwidthLimitMbps: 1000,
  amount: 1,
  value: 80,
  duration: 60,
} as const;

/** The value of ownerId that means "no owner" (the streaming cloud's own group), as null does. */
export const NO_OWNER = 'NONE';

export const NodeGroupAssignment = z.enum(['Common', 'Ingestion', 'Outgoing'], {
  error: (issue) =>
    issue.input === undefined ? 'Assignment is required' : 'Assignment must be Common, Ingestion or Outgoing',
});
export type NodeGroupAssignment = z.infer<typeof NodeGroupAssignment>;
/** The order groups of one list are sorted in. */
export const NODE_GROUP_ASSIGNMENTS = NodeGroupAssignment.options;

export const NodeGroupResourceType = z.enum(['Persistent', 'Allocated']);
export type NodeGroupResourceType = z.infer<typeof NodeGroupResourceType>;

export const ScalingConditionType = z.enum(['CPUGroupAvg', 'BWGroupAvg', 'GroupFull'], {
  error: (issue) =>
    issue.input === undefined
      ? 'Condition type is required'
      : 'Condition type must be CPUGroupAvg, BWGroupAvg or GroupFull',
});
export type ScalingConditionType = z.infer<typeof ScalingConditionType>;

export const ScalingSettingsType = z.enum(['None', 'Liner'], {
  error: (issue) => (issue.input === undefined ? 'Settings type is required' : 'Settings type must be None or Liner'),
});
export type ScalingSettingsType = z.infer<typeof ScalingSettingsType>;

export const ScalingComparison = z.enum(['More', 'Less'], {
  error: (issue) => (issue.input === undefined ? 'Comparison is required' : 'Comparison must be More or Less'),
});
export type ScalingComparison = z.infer<typeof ScalingComparison>;

export const ScalingActionType = z.enum(['Increase', 'Reduce'], {
  error: (issue) => (issue.input === undefined ? 'Action type is required' : 'Action type must be Increase or Reduce'),
});
export type ScalingActionType = z.infer<typeof ScalingActionType>;

export const ScalingProviderName = z.enum(['AWS', 'DigitalOcean', 'Oracle'], {
  error: (issue) =>
    issue.input === undefined ? 'Provider is required' : 'Provider must be AWS, DigitalOcean or Oracle',
});
export type ScalingProviderName = z.infer<typeof ScalingProviderName>;

/** The settings type a condition type requires: GroupFull has none, the averages are linear. */
export const settingsTypeFor = (condition: ScalingConditionType): ScalingSettingsType =>
  condition === 'GroupFull' ? 'None' : 'Liner';

const boundedNumber = (label: string, min: number, max: number, unit = '') =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
    .min(min, `${label} must be between ${min} and ${max}${unit}`)
    .max(max, `${label} must be between ${min} and ${max}${unit}`);

const boundedInteger = (label: string, min: number, max: number, unit = '') =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be between ${min} and ${max}${unit}`)
    .max(max, `${label} must be between ${min} and ${max}${unit}`);

export const ScalingConditionSettings = z.strictObject({
  type: ScalingSettingsType,
  comparison: ScalingComparison,
  /** Percent: CPU average, or bandwidth against the nodes' limits. GroupFull ignores it. */
  value: boundedNumber('Value', SCALING_LIMITS.value.min, SCALING_LIMITS.value.max),
  /** Seconds the condition must hold before the action runs. */
  duration: boundedInteger('Duration', SCALING_LIMITS.duration.min, SCALING_LIMITS.duration.max, ' seconds'),
});

export const ScalingCondition = z
  .strictObject({
    type: ScalingConditionType,
    settings: ScalingConditionSettings,
  })
  .superRefine((condition, ctx) => {
    const expected = settingsTypeFor(condition.type);
    if (condition.settings.type !== expected) {
      ctx.addIssue({
        code: 'custom',
        path: ['settings', 'type'],
        message:
          expected === 'None'
            ? 'Settings type must be None for GroupFull'
            : 'Settings type must be Liner for CPUGroupAvg and BWGroupAvg',
      });
    }
  });

export const ScalingActionSettings = z.strictObject({
  provider: ScalingProviderName,
  /** Provider-specific text: the AWS instance type, the DigitalOcean size slug or the Oracle shape. */
  value: z
    .string()
    .trim()
    .max(SCALING_LIMITS.providerValue, `Value must be at most ${SCALING_LIMITS.providerValue} characters`)
    .nullish()
    .transform((value) => (value ? value : null)),
  /** The bandwidth limit given to each node the action allocates. */
  bandwidthLimitMbps: z
    .number({
      error: (issue) =>
        issue.input === undefined ? 'Bandwidth limit is required' : 'Bandwidth limit must be a number',
    })
    .min(SCALING_LIMITS.bandwidthLimitMbps.min, 'Bandwidth limit must be at least 0')
    .default(SCALING_DEFAULTS.bandwidthLimitMbps),
  amount: boundedInteger('Amount', SCALING_LIMITS.amount.min, SCALING_LIMITS.amount.max).default(
    SCALING_DEFAULTS.amount,
  ),
});

export const ScalingAction = z.strictObject({
  type: ScalingActionType,
  settings: ScalingActionSettings,
});

/** A scaling rule as an admin writes it (create and full replacement). */
export const ScalingRuleInput = z.strictObject({
  enabled: z.boolean().default(SCALING_DEFAULTS.enabled),
  /** Seconds after an action before the same rule may act again. */
  actionTimeout: boundedInteger(
    'Action timeout',
    SCALING_LIMITS.actionTimeout.min,
    SCALING_LIMITS.actionTimeout.max,
    ' seconds',
  ).default(SCALING_DEFAULTS.actionTimeout),
  condition: ScalingCondition,
  action: ScalingAction,
});
export type ScalingRuleInput = z.output<typeof ScalingRuleInput>;
export type ScalingRuleDraft = z.input<typeof ScalingRuleInput>;

export const ScalingRule = z.object({
  id: Id,
  enabled: z.boolean(),
  actionTimeout: z.number().int(),
  condition: z.object({
    type: ScalingConditionType,
    settings: z.object({
      type: ScalingSettingsType,
      comparison: ScalingComparison,
      value: z.number(),
      duration: z.number().int(),
    }),
  }),
  action: z.object({
    type: ScalingActionType,
    settings: z.object({
      provider: ScalingProviderName,
      value: z.string().nullable(),
      bandwidthLimitMbps: z.number(),
      amount: z.number().int(),
    }),
  }),
  /** When the rule last acted; it may act again actionTimeout seconds later. */
  lastActionAt: Timestamp.nullable(),
});
export type ScalingRule = z.infer<typeof ScalingRule>;

/** A new rule as the form starts it. */
export const defaultScalingRule = (): ScalingRuleDraft => ({
  enabled: SCALING_DEFAULTS.enabled,
  actionTimeout: SCALING_DEFAULTS.actionTimeout,
  condition: {
    type: 'CPUGroupAvg',
    settings: {
      type: 'Liner',
      comparison: 'More',
      value: SCALING_DEFAULTS.value,
      duration: SCALING_DEFAULTS.duration,
    },
  },
  action: {
    type: 'Increase',
    settings: {
      provider: 'AWS',
      value: null,
      bandwidthLimitMbps: SCALING_DEFAULTS.bandwidthLimitMbps,
      amount: SCALING_DEFAULTS.amount,
    },
  },
});

/** Blank text is stored as null; an absent field stays absent (for partial updates). */
const blankAsNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value?.trim() ? value : null;

const optionalText = (max: number, label: string) =>
  z.string().max(max, `${label} must be at most ${max} characters`).nullish().transform(blankAsNull);

/** ownerId on input: an account id, or 'NONE' / null for the streaming cloud's own group. */
export const NodeGroupOwnerInput = z
  .string({ error: "Owner must be an account id or 'NONE'" })
  .nullable()
  .refine((value) => value === null || value === NO_OWNER || Id.safeParse(value).success, {
    message: "Owner must be an account id or 'NONE'",
  })
  .transform((value) => (value === NO_OWNER ? null : value));

const nodeGroupFields = {
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(NODE_GROUP_LIMITS.name, `Name must be at most ${NODE_GROUP_LIMITS.name} characters`),
  description: optionalText(NODE_GROUP_LIMITS.description, 'Description'),
  assignment: NodeGroupAssignment,
  ownerId: NodeGroupOwnerInput,
  onResourcesChangeCallbackUri: z
    .string()
    .trim()
    .max(NODE_GROUP_LIMITS.callbackUri, `Callback URI must be at most ${NODE_GROUP_LIMITS.callbackUri} characters`)
    .refine((value) => value === '' || /^https?:\/\/[^\s/]+/i.test(value), 'Callback URI must be an http or https URL')
    .nullish()
    .transform(blankAsNull),
};

/** A new group; it starts not scalable. */
export const NodeGroupCreate = z.strictObject({
  name: nodeGroupFields.name,
  description: nodeGroupFields.description,
  assignment: nodeGroupFields.assignment,
  ownerId: nodeGroupFields.ownerId.optional().transform((value) => value ?? null),
  onResourcesChangeCallbackUri: nodeGroupFields.onResourcesChangeCallbackUri,
});
export type NodeGroupCreate = z.output<typeof NodeGroupCreate>;
export type NodeGroupCreateInput = z.input<typeof NodeGroupCreate>;

/** A change: only the fields present change (the scaling toggle sends `{scalable}` alone). */
export const NodeGroupUpdate = z
  .strictObject({
    name: nodeGroupFields.name.optional(),
    description: nodeGroupFields.description,
    assignment: nodeGroupFields.assignment.optional(),
    ownerId: nodeGroupFields.ownerId.optional(),
    onResourcesChangeCallbackUri: nodeGroupFields.onResourcesChangeCallbackUri,
    scalable: z.boolean({ error: 'Scalable must be true or false' }).optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });
export type NodeGroupUpdate = z.output<typeof NodeGroupUpdate>;
export type NodeGroupUpdateInput = z.input<typeof NodeGroupUpdate>;

export const NodeGroupResource = z.object({
  id: Id,
  type: NodeGroupResourceType,
  node: Node,
  /** For allocated nodes: the provider that runs the instance and its id there. */
  provider: z.string().nullable(),
  externalId: z.string().nullable(),
  createdAt: Timestamp,
});
export type NodeGroupResource = z.infer<typeof NodeGroupResource>;

export const NodeGroupOwner = z.object({ id: Id, username: z.string() });

export const NodeGroup = z.object({
  id: Id,
  name: z.string(),
  description: z.string().nullable(),
  assignment: NodeGroupAssignment,
  /** null: the streaming cloud's own group. */
  ownerId: Id.nullable(),
  owner: NodeGroupOwner.nullable(),
  onResourcesChangeCallbackUri: z.string().nullable(),
  scalable: z.boolean(),
  scalingRules: z.array(ScalingRule),
  /** Persistent first, then Allocated; each by node name. */
  resources: z.array(NodeGroupResource),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type NodeGroup = z.infer<typeof NodeGroup>;

/** A node offered by the persistent-node picker, with the groups it is already in. */
export const PersistentNodeCandidate = z.object({
  node: Node,
  groups: z.array(z.object({ id: Id, name: z.string(), type: NodeGroupResourceType })),
});
export type PersistentNodeCandidate = z.infer<typeof PersistentNodeCandidate>;

export const ScalingEventType = z.enum(['Decision', 'ProviderCall', 'Callback']);
export type ScalingEventType = z.infer<typeof ScalingEventType>;

/** One autoscaler decision, provider call or callback delivery, as the dashboard lists them. */
export const ScalingEvent = z.object({
  id: z.number().int(),
  at: Timestamp,
  type: ScalingEventType,
  ruleId: Id.nullable(),
  /** Increase, Reduce, Allocate (the manual action) or Notify (the callback). */
  action: z.string(),
  provider: z.string().nullable(),
  success: z.boolean(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type ScalingEvent = z.infer<typeof ScalingEvent>;

export const ScalingEventsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const AllocateResult = z.object({
  event: ScalingEvent,
  resources: z.array(NodeGroupResource),
});
export type AllocateResult = z.infer<typeof AllocateResult>;

export const NodeGroupRuleParams = z.strictObject({ id: Id, ruleId: Id });
export const NodeGroupNodeParams = z.strictObject({ id: Id, nodeId: Id });

const WRITE_RULE = 'ADMIN; a USER gets 403 on its own group and 404 on any other';

/** A write of a node group: its summary says who may (WRITE_RULE), and it answers 403 or 404 to who may not. */
function groupWrite(summary: string, moreErrors: number[] = []) {
  return {
    summary: `${summary} (${WRITE_RULE})`,
    tag: 'node-groups',
    auth: 'user' as const,
    errors: [403, 404, ...moreErrors],
  };
}

export const nodeGroupRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/node-groups',
    summary: 'Node groups: ADMIN every group, USER the groups it owns',
    tag: 'node-groups',
    auth: 'user',
    response: z.array(NodeGroup),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/node-groups',
    summary: 'Create a node group (ADMIN); it starts not scalable',
    tag: 'node-groups',
    auth: 'admin',
    body: NodeGroupCreate,
    response: NodeGroup,
    status: 201,
  }),
  persistentNodes: defineRoute({
    method: 'GET',
    path: '/node-groups/persistent/node',
    summary: 'Every node, with the groups it is in, for the persistent-node picker (ADMIN)',
    tag: 'node-groups',
    auth: 'admin',
    response: z.array(PersistentNodeCandidate),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/node-groups/:id',
    summary: 'One node group with its scaling rules and nodes (USER: only its own, 404 otherwise)',
    tag: 'node-groups',
    auth: 'user',
    params: IdParams,
    response: NodeGroup,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/node-groups/:id',
    ...groupWrite('Change a node group; only the fields sent change'),
    params: IdParams,
    body: NodeGroupUpdate,
    response: NodeGroup,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/node-groups/:id',
    ...groupWrite('Delete a node group; its nodes are detached, never deleted'),
    params: IdParams,
    response: null,
  }),
  addRule: defineRoute({
    method: 'POST',
    path: '/node-groups/:id/scaling-rule',
    ...groupWrite('Add a scaling rule'),
    params: IdParams,
    body: ScalingRuleInput,
    response: ScalingRule,
    status: 201,
  }),
  updateRule: defineRoute({
    method: 'PUT',
    path: '/node-groups/:id/scaling-rule/:ruleId',
    ...groupWrite('Replace a scaling rule'),
    params: NodeGroupRuleParams,
    body: ScalingRuleInput,
    response: ScalingRule,
  }),
  deleteRule: defineRoute({
    method: 'DELETE',
    path: '/node-groups/:id/scaling-rule/:ruleId',
    ...groupWrite('Remove a scaling rule'),
    params: NodeGroupRuleParams,
    response: null,
  }),
  attachNode: defineRoute({
    method: 'PUT',
    path: '/node-groups/:id/node/:nodeId',
    ...groupWrite(
      'Make a node a Persistent node of the group; no body; an Allocated node of the group becomes Persistent',
      [429],
    ),
    params: NodeGroupNodeParams,
    response: null,
  }),
  detachNode: defineRoute({
    method: 'DELETE',
    path: '/node-groups/:id/node/:nodeId',
    ...groupWrite('Take a node out of the group; the node itself stays', [429]),
    params: NodeGroupNodeParams,
    response: null,
  }),
  scalingEvents: defineRoute({
    method: 'GET',
    path: '/node-groups/:id/scaling-events',
    summary: 'Recent autoscaler decisions, provider calls and callback deliveries of a group, newest first',
    tag: 'node-groups',
    auth: 'user',
    params: IdParams,
    query: ScalingEventsQuery,
    response: z.array(ScalingEvent),
    errors: [404],
  }),
  allocate: defineRoute({
    method: 'POST',
    path: '/node-groups/:id/allocate',
    ...groupWrite(
      "Allocate one node now through the provider of the group's first Increase rule",
      [409, 502, 503, 429],
    ),
    params: IdParams,
    response: AllocateResult,
    status: 201,
  }),
};
