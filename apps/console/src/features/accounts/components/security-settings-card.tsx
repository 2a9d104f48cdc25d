import { messageOr } from '@streamcloud/api-client';
import { type SecuritySettings, twoFactorRoutes } from '@streamcloud/contract';
import type { ChangeEvent } from 'react';
import { CheckField } from '@/components/ui/form-fields';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { accountKeys } from '@/data/accounts/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';

export const SECURITY_TEXTS = {
  loadingFailed: 'The security settings could not be loaded.',
  saved: 'The security settings were saved.',
  saveFailed: 'The security settings could not be saved.',
} as const;

/** Sign-in security for every account (ADMIN): saved as soon as it is switched. */
export function SecuritySettingsCard() {
  const settings = useRouteQuery(twoFactorRoutes.settings, accountKeys.securitySettings(), {});
  // Whoami's enrolment flag may change with the settings.
  const update = useRouteMutation(twoFactorRoutes.updateSettings, {
    toRequest: (body: SecuritySettings) => ({ body }),
    sets: () => accountKeys.securitySettings(),
    invalidates: () => [accountKeys.whoami()],
  });
  const notify = useNotify();
  return (
    <TitledCard title="Security">
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <p className="text-danger mb-0">{SECURITY_TEXTS.loadingFailed}</p>
      ) : (
        <CheckField
          id="require-admin-two-factor"
          kind="switch"
          className="mb-0"
          label="Require two-factor authentication for administrators"
          help="Administrators without it are sent to enable it in their account settings after signing in."
          checked={settings.data.requireTwoFactorForAdmins}
          disabled={update.isPending}
          onChange={(event: ChangeEvent<HTMLInputElement>) =>
            update.mutate(
              { requireTwoFactorForAdmins: event.currentTarget.checked },
              {
                onSuccess: () => notify(SECURITY_TEXTS.saved, 'success'),
                onError: (error) => notify(messageOr(error, SECURITY_TEXTS.saveFailed)),
              },
            )
          }
        />
      )}
    </TitledCard>
  );
}
