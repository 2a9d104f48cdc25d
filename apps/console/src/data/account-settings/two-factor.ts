import { twoFactorRoutes } from '@streamcloud/contract';
import { accountKeys } from '../accounts/keys';
import { useRouteMutation } from '../route-mutation';
import { useRouteQuery } from '../route-query';
import { settingsKeys } from './keys';

/** Whether the account has two-factor sign-in, and its recovery codes left; waits while the account is unknown. */
export function useTwoFactorStatus(accountId: string | undefined) {
  return useRouteQuery(
    twoFactorRoutes.status,
    settingsKeys.twoFactor(accountId ?? ''),
    { params: { id: accountId ?? '' } },
    { enabled: accountId !== undefined },
  );
}

/** A change of two-factor sign-in: its status, and whoami's enrolment flag, are read again. */
const changesTwoFactor = { invalidates: () => [settingsKeys.twoFactors(), accountKeys.whoami()] };

/** A new secret, pending until confirmed (the only time the server shows it); the account's password again. */
export const useStartTwoFactor = () =>
  useRouteMutation(twoFactorRoutes.start, {
    toRequest: (password: string) => ({ body: { password } }),
    ...changesTwoFactor,
  });

export const useConfirmTwoFactor = () =>
  useRouteMutation(twoFactorRoutes.confirm, { toRequest: (code: string) => ({ body: { code } }), ...changesTwoFactor });

export const useDisableTwoFactor = () =>
  useRouteMutation(twoFactorRoutes.disable, { toRequest: (code: string) => ({ body: { code } }), ...changesTwoFactor });
