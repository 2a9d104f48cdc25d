import type { ApiClient } from '@streamcloud/api-client';
import { nodeRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';

/** A new node token; the old one stops working at once. */
export function reissueNodeToken(api: ApiClient, id: string): Promise<{ token: string }> {
  return api.call(nodeRoutes.reissueToken, { params: { id } });
}

export function useReissueNodeToken() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => reissueNodeToken(api, id) });
}
