import type { ReactNode } from 'react';
import { Loading } from '@/components/ui/loading';
import { PageShell } from '@/components/ui/page-shell';
import { useWhoAmI } from '@/data/accounts/get-whoami';

export const NOT_PERMITTED = 'You are not permitted to view this page.';
export const ACCOUNT_UNAVAILABLE = 'Your account could not be loaded, so this page cannot be shown.';

function gateNotice(pending: boolean, failed: boolean) {
  if (pending) return <Loading />;
  return <p>{failed ? ACCOUNT_UNAVAILABLE : NOT_PERMITTED}</p>;
}

/** Admin-only screens; the role is the one of the account the session acts as. */
export function RequireAdmin({ title, children }: { title: string; children: ReactNode }) {
  const me = useWhoAmI();
  if (me.data?.role === 'ADMIN') return children;
  return <PageShell title={title}>{gateNotice(me.isPending, me.isError)}</PageShell>;
}
