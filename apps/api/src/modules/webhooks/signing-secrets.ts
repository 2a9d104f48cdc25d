import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { generateSigningSecret } from './signature.js';
import type { SecretRow, WebhooksRepository } from './webhooks.repository.js';

/** How long the secret a rotation replaces keeps signing alongside the new one. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000;

/** The sealed secrets of a scope, as a delivery claim answers them. */
export interface SealedSecrets {
  secret: string;
  previous_secret: string | null;
  previous_expires_at: Date | null;
}

export interface OpenSecret {
  accountId: string | null;
  secret: string;
  createdAt: Date;
  previousExpiresAt: Date | null;
}

/**
 * The signing secret of each account (and of the platform): made on first use, sealed at rest with the
 * scope as context, rotated with a 24-hour overlap. Secrets are opened only to sign or to show to the owner.
 */
export class SigningSecrets {
  constructor(private readonly deps: { repository: WebhooksRepository; box: SecretBox; clock: Clock }) {}

  private context = (scope: string) => `webhook-secret:${scope}`;

  /** The scope's secret row, made now if it has none yet. */
  async ensure(scope: string, accountId: string | null): Promise<SecretRow> {
    const existing = await this.deps.repository.findSecret(scope);
    if (existing) return existing;
    return this.deps.repository.insertSecretIfAbsent({
      scope,
      account_id: accountId,
      secret: this.deps.box.seal(generateSigningSecret(), this.context(scope)),
      previous_secret: null,
      previous_expires_at: null,
      created_at: this.deps.clock.now(),
    });
  }

  async show(scope: string, accountId: string | null): Promise<OpenSecret> {
    return this.open(await this.ensure(scope, accountId));
  }

  async rotate(scope: string, accountId: string | null): Promise<OpenSecret> {
    await this.ensure(scope, accountId);
    const now = this.deps.clock.now();
    const row = await this.deps.repository.rotateSecret(
      scope,
      this.deps.box.seal(generateSigningSecret(), this.context(scope)),
      new Date(now.getTime() + PREVIOUS_SECRET_VALIDITY_MS),
      now,
    );
    if (!row) throw new Error(`The signing secret of ${scope} disappeared while it was rotated`);
    return this.open(row);
  }

  /** The secrets that sign a delivery now: the current one, and the previous one while it is valid. */
  signingKeys(scope: string, sealed: SealedSecrets): string[] {
    const keys = [this.deps.box.open(sealed.secret, this.context(scope))];
    if (sealed.previous_secret && sealed.previous_expires_at && sealed.previous_expires_at > this.deps.clock.now()) {
      keys.push(this.deps.box.open(sealed.previous_secret, this.context(scope)));
    }
    return keys;
  }

  private open(row: SecretRow): OpenSecret {
    const valid = row.previous_expires_at && row.previous_expires_at > this.deps.clock.now();
    return {
      accountId: row.account_id,
      secret: this.deps.box.open(row.secret, this.context(row.scope)),
      createdAt: row.created_at,
      previousExpiresAt: valid ? row.previous_expires_at : null,
    };
  }
}
