import { messageOr } from '@streamcloud/api-client';
import { type Account, twoFactorRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link, useNavigate } from 'react-router';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { useAccounts } from '@/data/accounts/get-accounts';
import { useWhoAmI } from '@/data/accounts/get-whoami';
import { useRouteMutation } from '@/data/route-mutation';
import { useAuthStore } from '@/lib/services-context';

export const IMPERSONATION_FAILED = 'Impersonation failed';

export const RESET_TWO_FACTOR_TEXTS = {
  question: (username: string) =>
    `Reset two-factor authentication of ${username}? The account then signs in with its password alone until it enables it again.`,
  done: (username: string) => `Two-factor authentication of ${username} was reset.`,
  failed: 'Two-factor authentication could not be reset.',
} as const;

/** Resets an account's two-factor sign-in after a confirmation. */
function useResetTwoFactorAction() {
  const reset = useRouteMutation(twoFactorRoutes.reset, { toRequest: (id: string) => ({ params: { id } }) });
  const notify = useNotify();
  const [asking, setAsking] = useState<Account | null>(null);
  const confirm = () => {
    const account = asking;
    setAsking(null);
    if (!account) return;
    reset.mutate(account.id, {
      onSuccess: () => notify(RESET_TWO_FACTOR_TEXTS.done(account.username), 'success'),
      onError: (error) => notify(messageOr(error, RESET_TWO_FACTOR_TEXTS.failed)),
    });
  };
  const dialog = (
    <ConfirmDialog
      show={asking !== null}
      title="Reset two-factor authentication"
      message={asking ? RESET_TWO_FACTOR_TEXTS.question(asking.username) : ''}
      onConfirm={confirm}
      onCancel={() => setAsking(null)}
    />
  );
  return { ask: setAsking, pending: reset.isPending, dialog };
}

function useImpersonateAction() {
  const auth = useAuthStore();
  // GET /accounts/{id}/impersonate goes through the auth state, which keeps the admin's token. Resolves false
  // when the call failed; rejects when the preconditions do not hold.
  const impersonate = useMutation({ mutationFn: (accountId: string) => auth.impersonate(accountId) });
  const notify = useNotify();
  const navigate = useNavigate();
  const run = async (account: Account) => {
    try {
      if (await impersonate.mutateAsync(account.id)) navigate('/');
      else notify(IMPERSONATION_FAILED);
    } catch (error) {
      notify(error instanceof Error ? error.message : IMPERSONATION_FAILED);
    }
  };
  return { run, pendingId: impersonate.isPending ? impersonate.variables : undefined };
}

export function AccountsTable() {
  const accounts = useAccounts();
  const me = useWhoAmI();
  const impersonate = useImpersonateAction();
  const resetTwoFactor = useResetTwoFactorAction();

  if (accounts.isPending) return <Loading />;
  if (accounts.isError) return <p className="text-danger">The accounts could not be loaded.</p>;
  if (accounts.data.length === 0) return <p>No accounts.</p>;

  return (
    <>
      <Table responsive hover className="align-middle">
        <caption className="visually-hidden">Accounts</caption>
        <ColumnHeaders columns={['Username', 'Email', 'Role', 'Actions']} />
        <tbody>
          {accounts.data.map((account) => (
            <tr key={account.id}>
              <td>{account.username}</td>
              <td>{account.email}</td>
              <td>
                <Badge bg={account.role === 'ADMIN' ? 'primary' : 'secondary'}>{account.role}</Badge>
              </td>
              <td className="d-flex flex-wrap gap-2">
                <Link className="btn btn-sm btn-outline-secondary" to={`/streams/account/${account.id}`}>
                  Streams
                </Link>
                <Link className="btn btn-sm btn-outline-secondary" to={`/billing/account/${account.id}`}>
                  Billing
                </Link>
                <Button
                  size="sm"
                  variant="outline-primary"
                  disabled={account.id === me.data?.id || impersonate.pendingId !== undefined}
                  onClick={() => void impersonate.run(account)}
                >
                  Impersonate
                </Button>
                <Button
                  size="sm"
                  variant="outline-danger"
                  aria-label={`Reset two-factor authentication of ${account.username}`}
                  disabled={account.id === me.data?.id || resetTwoFactor.pending}
                  onClick={() => resetTwoFactor.ask(account)}
                >
                  Reset 2FA
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {resetTwoFactor.dialog}
    </>
  );
}
