import type { ApiClient } from '@streamcloud/api-client';
import { type TwoFactorStatus, twoFactorRoutes } from '@streamcloud/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/data/accounts/keys';
import { useApi } from '@/lib/services-context';
import { settingsKeys } from './keys';

export function getTwoFactorStatus(api: ApiClient, accountId: string, signal?: AbortSignal): Promise<TwoFactorStatus> {
  return api.call(twoFactorRoutes.status, { params: { id: accountId }, ...(signal ? { signal } : {}) });
}

/** Whether the account has two-factor sign-in, and its recovery codes left. */
export function useTwoFactorStatus(accountId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: settingsKeys.twoFactor(accountId ?? ''),
    queryFn: ({ signal }) => getTwoFactorStatus(api, accountId as string, signal),
    enabled: accountId !== undefined,
  });
}

/** A change of two-factor sign-in: its status, and whoami's enrolment flag, are read again. */
function useTwoFactorMutation<T, R>(call: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: T) => call(api, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...settingsKeys.all, 'two-factor'] }),
        queryClient.invalidateQueries({ queryKey: accountKeys.whoami() }),
      ]),
  });
}

/** A new secret, pending until confirmed (the only time the server shows it); the account's password again. */
export const useStartTwoFactor = () =>
  useTwoFactorMutation((api, password: string) => api.call(twoFactorRoutes.start, { body: { password } }));

export const useConfirmTwoFactor = () =>
  useTwoFactorMutation((api, code: string) => api.call(twoFactorRoutes.confirm, { body: { code } }));

export const useDisableTwoFactor = () =>
  useTwoFactorMutation((api, code: string) => api.call(twoFactorRoutes.disable, { body: { code } }));
