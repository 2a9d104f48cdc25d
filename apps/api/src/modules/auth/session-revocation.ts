/**
 * The auth module's port for the accounts module, in the accounts module's transaction: ending what stands
 * for an account. The unit of work hands it to the accounts service as `sessionRevocation`.
 */
export interface SessionRevocation {
  /** Revokes an account's sessions, but `keep` when given (on a new password; API keys are kept). */
  revokeAccount(accountId: string, now: Date, keep?: string): Promise<void>;
  /**
   * Revokes for good everything made under the account's role (on a change of it): its sessions, the
   * impersonations it started as an admin and its API keys. A later change back brings none of them back.
   */
  revokeRoleCredentials(accountId: string, now: Date): Promise<void>;
}
