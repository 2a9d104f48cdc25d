import { useAccount } from '../accounts/get-account';
import { useWhoAmI } from '../accounts/get-whoami';

/** The account a report is for (its username and id are printed): `id`'s, or the signed-in one when id is null. */
export function useBillingAccount(id: string | null, enabled = true) {
  const me = useWhoAmI({ enabled: enabled && id === null });
  const other = useAccount(id ?? undefined, { enabled });
  return id === null ? me : other;
}
