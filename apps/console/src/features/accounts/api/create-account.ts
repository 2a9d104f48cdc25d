import type { ApiClient } from '@streamcloud/api-client';
import { type Account, type AccountCreate, accountRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/data/accounts/keys';
import { useApi } from '@/lib/services-context';

export function createAccount(api: ApiClient, body: AccountCreate): Promise<Account> {
  return api.call(accountRoutes.create, { body });
}

export function useCreateAccount() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountCreate) => createAccount(api, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.lists() }),
  });
}
