import { PageShell } from '@/components/ui/page-shell';
import { ApiKeysCard } from './api-keys-card';
import { TwoFactorCard } from './two-factor-card';

/** The signed-in account's own settings: two-factor sign-in and its API keys. */
export function AccountSettingsScreen() {
  return (
    <PageShell title="Account settings">
      <TwoFactorCard />
      <ApiKeysCard />
    </PageShell>
  );
}
