import { PageShell } from '@/components/ui/page-shell';
import { ApiKeysCard } from './api-keys-card';

/** The signed-in account's own settings: its API keys. */
export function AccountSettingsScreen() {
  return (
    <PageShell title="Account settings">
      <ApiKeysCard />
    </PageShell>
  );
}
