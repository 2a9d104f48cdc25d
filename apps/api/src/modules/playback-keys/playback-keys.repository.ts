import { PLAYBACK_KEYS_LISTED_MAX, PLAYBACK_TOKEN_REVOCATIONS_LISTED_MAX } from '@streamcloud/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PlaybackKeysTable, PlaybackTokenRevocationsTable } from './playback-keys.table.js';

export type PlaybackKeyRow = Selectable<PlaybackKeysTable>;
export type PlaybackTokenRevocationRow = Selectable<PlaybackTokenRevocationsTable>;
export type NewPlaybackKey = Omit<PlaybackKeyRow, 'revoked_at'>;

export class PlaybackKeysRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inside a transaction: the account's active keys, counted with its account row locked against another
   * key's creation until the transaction ends (so two creations cannot both pass the limit).
   */
  async lockAndCountActive(accountId: string): Promise<number> {
    await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    const row = await this.db
      .selectFrom('playback_keys')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insert(key: NewPlaybackKey): Promise<PlaybackKeyRow> {
    return this.db.insertInto('playback_keys').values(key).returningAll().executeTakeFirstOrThrow();
  }

  /** One account's keys (every account's with null), active first, then newest first; bounded. */
  list(accountId: string | null): Promise<PlaybackKeyRow[]> {
    let query = this.db.selectFrom('playback_keys').selectAll();
    if (accountId !== null) query = query.where('account_id', '=', accountId);
    return query
      .orderBy((eb) => eb('revoked_at', 'is', null), 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(PLAYBACK_KEYS_LISTED_MAX)
      .execute();
  }

  /** Every key of an account, revoked ones included (their tokens are refused as revoked). */
  ofAccount(accountId: string): Promise<PlaybackKeyRow[]> {
    return this.db.selectFrom('playback_keys').selectAll().where('account_id', '=', accountId).execute();
  }

  /** Every key of these accounts, revoked ones included (what nodes verify with). */
  ofAccounts(accountIds: string[]): Promise<PlaybackKeyRow[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('playback_keys').selectAll().where('account_id', 'in', accountIds).execute();
  }

  /**
   * What changes whenever an account's revoked token ids change (one is added, or the oldest expire): their
   * count and the first and last revocation times, per account that has any.
   */
  revocationMarksOf(accountIds: string[]): Promise<{ account_id: string; count: number; first: Date; last: Date }[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('playback_token_revocations')
      .select((eb) => [
        'account_id',
        eb.fn.countAll<number>().as('count'),
        eb.fn.min('revoked_at').as('first'),
        eb.fn.max('revoked_at').as('last'),
      ])
      .where('account_id', 'in', accountIds)
      .groupBy('account_id')
      .execute();
  }

  /** Every revoked token id of these accounts. */
  revokedTokenIdsOf(accountIds: string[]): Promise<{ account_id: string; jti: string }[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('playback_token_revocations')
      .select(['account_id', 'jti'])
      .where('account_id', 'in', accountIds)
      .execute();
  }

  /** Revokes a key; answers whether this call did (of concurrent calls, one does). */
  async revoke(id: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('playback_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Inside a transaction: the account's revoked token ids, counted with its account row locked (as keys are).
   */
  async lockAndCountRevocations(accountId: string): Promise<number> {
    await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    const row = await this.db
      .selectFrom('playback_token_revocations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Records a revoked token id; null when it was already (of concurrent calls, one records it). */
  revokeToken(accountId: string, jti: string, now: Date): Promise<PlaybackTokenRevocationRow | undefined> {
    return this.db
      .insertInto('playback_token_revocations')
      .values({ account_id: accountId, jti, revoked_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'jti']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** One account's revoked token ids (every account's with null), newest first; bounded. */
  revokedTokens(accountId: string | null): Promise<PlaybackTokenRevocationRow[]> {
    let query = this.db.selectFrom('playback_token_revocations').selectAll();
    if (accountId !== null) query = query.where('account_id', '=', accountId);
    return query.orderBy('revoked_at', 'desc').orderBy('jti').limit(PLAYBACK_TOKEN_REVOCATIONS_LISTED_MAX).execute();
  }

  /** Whether an account revoked a token id. */
  async isTokenRevoked(accountId: string, jti: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('playback_token_revocations')
      .select('jti')
      .where('account_id', '=', accountId)
      .where('jti', '=', jti)
      .executeTakeFirst();
    return row !== undefined;
  }
}
