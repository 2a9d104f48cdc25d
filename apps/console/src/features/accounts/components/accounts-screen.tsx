import { PageShell } from '@/components/ui/page-shell';
import { AccountsTable } from './accounts-table';
import { CreateAccountForm } from './create-account-form';

export function AccountsScreen() {
  return (
    <PageShell title="Accounts">
      <CreateAccountForm />
      <AccountsTable />
    </PageShell>
  );
}
