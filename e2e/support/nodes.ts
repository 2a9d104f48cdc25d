import type { APIRequestContext } from '@playwright/test';
import { type BodyOf, type NodeWithToken, nodeRoutes } from '@streamcloud/contract';
import { ADMIN, apiLogin } from './accounts';
import { api } from './api';

/** Registers a node through the API, as the admin; answers it with its node token. */
export async function apiCreateNode(
  request: APIRequestContext,
  body: BodyOf<typeof nodeRoutes.create>,
): Promise<NodeWithToken> {
  return api(request, await apiLogin(request, ADMIN)).call(nodeRoutes.create, { body });
}
