import { useMutation } from '@tanstack/react-query';
import { useAuthStore } from '@/lib/services-context';

/**
 * GET /accounts/{id}/impersonate goes through the auth state, which keeps the admin's token.
 * Resolves false when the call failed; rejects when the preconditions do not hold.
 */
export function useImpersonateAccount() {
  const auth = useAuthStore();
  return useMutation({
    mutationFn: (accountId: string) => auth.impersonate(accountId),
  });
}
