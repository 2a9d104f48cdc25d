import { addressPolicy, createNetGuard, type NetGuard } from '@streamcloud/net-guard';
import type { FastifyRequest } from 'fastify';

/**
 * Every connection the control plane opens goes through one of two guards (packages/net-guard), which
 * check the destination address when connecting, after DNS resolution.
 */
export interface Outbound {
  /**
   * Destinations users choose — storage endpoints, callback URIs: public addresses only, private ones
   * too when the operator allows private networks (ALLOW_PRIVATE_NETWORKS, e.g. for a self-hosted MinIO).
   */
  users: NetGuard;
  /**
   * Destinations the operator configured — media nodes' control API, cloud provider APIs, Prometheus:
   * private networks too. Link-local and metadata addresses are refused to both.
   */
  operator: NetGuard;
}

export function createOutbound(options: { allowPrivateNetworks: boolean }): Outbound {
  return {
    users: createNetGuard(addressPolicy({ allowPrivate: options.allowPrivateNetworks })),
    operator: createNetGuard(addressPolicy({ allowPrivate: true })),
  };
}

/** The guards when nothing else is configured: users' destinations public only. */
export const DEFAULT_OUTBOUND: Outbound = createOutbound({ allowPrivateNetworks: false });

const perAccount = (request: FastifyRequest) => request.auth?.accountId ?? request.ip;

/**
 * The rate limit of every route that makes the server connect out to a destination a user chose (a
 * storage check): per account and route, so no one can turn the server into a scanner.
 */
export const OUTBOUND_RATE_LIMIT = { max: 10, timeWindow: '1 minute', keyGenerator: perAccount };

/**
 * The same for ADMIN routes that connect out (a node's control API, a provider, a group's callback):
 * a sanity bound, wide enough for an operator at work.
 */
export const ADMIN_OUTBOUND_RATE_LIMIT = { max: 60, timeWindow: '1 minute', keyGenerator: perAccount };
