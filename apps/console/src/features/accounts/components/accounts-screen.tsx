import { PageShell } from '@/components/ui/page-shell';
import { AccountsTable } from './accounts-table';
import { CreateAccountForm } from './create-account-form';
import { SecuritySettingsCard } from './security-settings-card';

export function AccountsScreen() {
  return (
    <PageShell title="Accounts">
      <CreateAccountForm />
      <AccountsTable />
      <SecuritySettingsCard />
    </PageShell>
  );
}
