import { type SecuritySettings, twoFactorRoutes } from '@streamcloud/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/data/accounts/keys';
import { useApi } from '@/lib/services-context';

const securitySettingsKey = [...accountKeys.all, 'security-settings'] as const;

/** Resets another account's two-factor sign-in (ADMIN). */
export function useResetTwoFactor() {
  const api = useApi();
  return useMutation({
    mutationFn: (accountId: string) => api.call(twoFactorRoutes.reset, { params: { id: accountId } }),
  });
}

/** The sign-in security settings (ADMIN). */
export function useSecuritySettings() {
  const api = useApi();
  return useQuery({
    queryKey: securitySettingsKey,
    queryFn: ({ signal }) => api.call(twoFactorRoutes.settings, { signal }),
  });
}

/** Saves the settings; whoami's enrolment flag may change with them. */
export function useUpdateSecuritySettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecuritySettings) => api.call(twoFactorRoutes.updateSettings, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(securitySettingsKey, saved);
      return queryClient.invalidateQueries({ queryKey: accountKeys.whoami() });
    },
  });
}
