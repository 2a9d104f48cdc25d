import { randomUUID } from 'node:crypto';
import type { Storage, StorageCheckResult, StorageCreate, StorageSaved, StorageUpdate } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box.js';
import type { AccountsService } from '../accounts/index.js';
import type { S3Target } from './s3-connection.js';
import type { StorageUsage } from './storage-usage.js';
import { StorageReferencedError, type StorageRow } from './storages.repository.js';

export interface ConnectionChecker {
  check(target: S3Target): Promise<StorageCheckResult>;
}

export interface StoragesServiceDeps {
  uow: Scope<'storages' | 'access' | 'audit'>;
  accounts: Pick<AccountsService, 'exists'>;
  clock: Clock;
  /** Seals the secret access keys; the storage id is the additional data. */
  secrets: SecretBox;
  checker: ConnectionChecker;
  /** Answers whether recordings use a storage (the recordings module implements it). */
  usage: StorageUsage;
}

export function toStorage(row: StorageRow): Storage {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    accessKeyId: row.access_key_id,
    secretAccessKeySet: row.secret_access_key_enc !== '',
    regionName: row.region_name,
    bucket: row.bucket,
    path: row.path,
    endpoint: row.endpoint,
    ownerId: row.owner_id,
    ownerUsername: row.owner_username,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const UNDECRYPTABLE: StorageCheckResult = {
  ok: false,
  checks: [
    {
      name: 'bucket',
      ok: false,
      message:
        'The stored secret access key cannot be decrypted (was the storage encryption key changed?): enter the secret again',
    },
    { name: 'write', ok: false, message: 'Not tried: the bucket is not reachable' },
    { name: 'cleanup', ok: false, message: 'Not tried: nothing was written' },
  ],
};

/**
 * Storages belong to an account. A USER sees and changes only its own (another account's answers 404);
 * an ADMIN sees every account's and may create one for any account. The secret access key is sealed
 * before it reaches the repository and is opened only to talk to S3; it is never answered or audited.
 */
export class StoragesService {
  constructor(private readonly deps: StoragesServiceDeps) {}

  async list(auth: AuthContext, ownerId: string | undefined): Promise<Storage[]> {
    const { storages } = this.deps.uow;
    if (auth.role === 'ADMIN') return (await storages.list(ownerId)).map(toStorage);
    // Unlike the lists of streams and usage, naming another account here answers an empty list.
    if (ownerId !== undefined && ownerId !== auth.accountId) return [];
    return (await storages.list(auth.accountId)).map(toStorage);
  }

  async get(auth: AuthContext, id: string): Promise<Storage> {
    return toStorage(await this.findVisible(auth, id));
  }

  async create(auth: AuthContext, body: StorageCreate, options: { check: boolean }): Promise<StorageSaved> {
    const ownerId = body.ownerId ?? auth.accountId;
    if (ownerId !== auth.accountId) {
      if (auth.role !== 'ADMIN') throw forbidden('Only administrators may create a storage for another account');
      if (!(await this.deps.accounts.exists(ownerId)))
        throw badRequest('Owner account does not exist', 'UNKNOWN_OWNER');
    }
    const id = randomUUID();
    const row = await this.deps.uow.storages.insert({
      id,
      owner_id: ownerId,
      ...this.columns(body),
      secret_access_key_enc: this.deps.secrets.seal(body.secretAccessKey, id),
    });
    await this.audit(auth, 'storage.create', row, { secretAccessKeyChanged: true });
    return this.saved(row, options.check);
  }

  async update(auth: AuthContext, id: string, body: StorageUpdate, options: { check: boolean }): Promise<StorageSaved> {
    const existing = await this.findVisible(auth, id);
    const row = await this.deps.uow.storages.update(
      id,
      {
        ...this.columns(body),
        secret_access_key_enc:
          body.secretAccessKey !== undefined
            ? this.deps.secrets.seal(body.secretAccessKey, id)
            : existing.secret_access_key_enc,
      },
      this.deps.clock.now(),
    );
    if (!row) throw notFound('Storage');
    const changed = (['name', 'type', 'accessKeyId', 'regionName', 'bucket', 'path', 'endpoint'] as const).filter(
      (field) => toStorage(existing)[field] !== toStorage(row)[field],
    );
    await this.audit(auth, 'storage.update', row, {
      changed,
      secretAccessKeyChanged: body.secretAccessKey !== undefined,
    });
    return this.saved(row, options.check);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const existing = await this.findVisible(auth, id);
    const recordings = await this.deps.usage.recordingsUsing(id);
    if (recordings > 0) throw this.inUse(recordings);
    try {
      if (!(await this.deps.uow.storages.delete(id))) throw notFound('Storage');
    } catch (error) {
      if (error instanceof StorageReferencedError) throw this.inUse(null);
      throw error;
    }
    await this.audit(auth, 'storage.delete', existing, {});
  }

  /** The connection check with the stored credentials; every failure is part of the answer. */
  async check(auth: AuthContext, id: string): Promise<StorageCheckResult> {
    return this.runCheck(await this.findVisible(auth, id));
  }

  /**
   * Where and with which credentials a media node reaches a storage with its work (a recording's upload,
   * a fallback's object); callers check ownership first. Null when the storage is gone or its secret
   * cannot be opened, which the node reports in words.
   */
  async nodeTarget(id: string): Promise<S3Target | null> {
    const row = await this.deps.uow.storages.findById(id);
    if (!row) return null;
    try {
      return this.target(row);
    } catch (error) {
      if (error instanceof SecretBoxError) return null;
      throw error;
    }
  }

  private async findVisible(auth: AuthContext, id: string): Promise<StorageRow> {
    await this.deps.uow.access.require(auth, 'storage', id);
    return this.find(id);
  }

  private async find(id: string): Promise<StorageRow> {
    const row = await this.deps.uow.storages.findById(id);
    if (!row) throw notFound('Storage');
    return row;
  }

  private columns(body: StorageCreate | StorageUpdate) {
    return {
      name: body.name,
      type: body.type,
      access_key_id: body.accessKeyId,
      region_name: body.regionName,
      bucket: body.bucket,
      path: body.path,
      endpoint: body.type === 'AmazonS3Compatible' ? body.endpoint : null,
    };
  }

  private target(row: StorageRow): S3Target {
    return {
      type: row.type,
      accessKeyId: row.access_key_id,
      secretAccessKey: this.deps.secrets.open(row.secret_access_key_enc, row.id),
      regionName: row.region_name,
      bucket: row.bucket,
      path: row.path,
      endpoint: row.endpoint,
    };
  }

  private async runCheck(row: StorageRow): Promise<StorageCheckResult> {
    let target: S3Target;
    try {
      target = this.target(row);
    } catch (error) {
      if (error instanceof SecretBoxError) return UNDECRYPTABLE;
      throw error;
    }
    return this.deps.checker.check(target);
  }

  private async saved(row: StorageRow, check: boolean): Promise<StorageSaved> {
    const result = check ? await this.runCheck(row) : null;
    const failed = result?.checks.find((entry) => !entry.ok);
    return {
      ...toStorage(row),
      check: result,
      warning:
        result && !result.ok ? `Saved, but the connection check failed: ${failed?.message ?? 'unknown reason'}` : null,
    };
  }

  private inUse(recordings: number | null) {
    const what = recordings === null ? 'a recording' : recordings === 1 ? '1 recording' : `${recordings} recordings`;
    return conflict(`The storage is used by ${what} and cannot be deleted`, 'STORAGE_IN_USE');
  }

  private audit(auth: AuthContext, action: string, row: StorageRow, details: Record<string, unknown>) {
    return this.deps.uow.audit.recordBy(
      auth,
      {
        action,
        targetType: 'storage',
        targetId: row.id,
        details: { name: row.name, type: row.type, bucket: row.bucket, ownerId: row.owner_id, ...details },
      },
      this.deps.clock.now(),
    );
  }
}
