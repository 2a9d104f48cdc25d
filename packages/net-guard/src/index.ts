import type { AddressPolicy } from './address.js';
import { type GuardedAgents, guardedAgents } from './agents.js';
import { createGuardedFetch, type GuardedFetch } from './fetch.js';

export * from './address.js';
export * from './agents.js';
export * from './fetch.js';

/** Everything an outbound caller needs, under one policy: the agents (for SDKs) and a fetch. */
export interface NetGuard {
  policy: AddressPolicy;
  agents: GuardedAgents;
  fetch: GuardedFetch;
}

export function createNetGuard(policy: AddressPolicy): NetGuard {
  const agents = guardedAgents(policy);
  return { policy, agents, fetch: createGuardedFetch(agents) };
}
