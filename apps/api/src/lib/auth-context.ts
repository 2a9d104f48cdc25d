import type { Role } from '@streamcloud/contract';

/** Who is calling: the account a token acts as, and the admin behind it while impersonating. */
export interface AuthContext {
  accountId: string;
  username: string;
  role: Role;
  sessionId: string;
  /** Set while an admin impersonates accountId. */
  actingAdminId: string | null;
  actingAdminUsername: string | null;
  /** The admin's own session an impersonation session was started from. */
  parentSessionId: string | null;
  /** Set when the caller presented an API key (`sessionId` is then the key's id): its id and scope. */
  apiKey?: { id: string; scope: 'read' | 'write' };
}

export const isImpersonating = (auth: AuthContext) => auth.actingAdminId !== null;

/** A media node calling the node-facing API with its node token. */
export interface NodeIdentity {
  id: string;
  name: string;
}
