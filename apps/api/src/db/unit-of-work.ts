import { Access } from '../modules/access/access.js';
import { AccessRepository } from '../modules/access/access.repository.js';
import { type AccountCredentials, AccountsRepository } from '../modules/accounts/accounts.repository.js';
import { AuditRepository } from '../modules/audit/audit.repository.js';
import { ApiKeysRepository } from '../modules/auth/api-keys.repository.js';
import { LoginThrottleRepository } from '../modules/auth/login-throttle.repository.js';
import type { SessionRevocation } from '../modules/auth/session-revocation.js';
import { SessionsRepository } from '../modules/auth/sessions.repository.js';
import { TwoFactorRepository } from '../modules/auth/two-factor.repository.js';
import { FallbacksRepository } from '../modules/fallbacks/fallbacks.repository.js';
import { HealthRepository } from '../modules/health/health.repository.js';
import { NodeGroupsRepository } from '../modules/node-groups/node-groups.repository.js';
import { NodeReportsRepository } from '../modules/nodes/node-reports.repository.js';
import { NodesRepository } from '../modules/nodes/nodes.repository.js';
import { PlaybackKeysRepository } from '../modules/playback-keys/playback-keys.repository.js';
import { RecordingsRepository } from '../modules/recordings/recordings.repository.js';
import { RelaysRepository } from '../modules/relays/relays.repository.js';
import { SnapshotsRepository } from '../modules/snapshots/snapshots.repository.js';
import { MetricsRepository } from '../modules/statistics/metrics.repository.js';
import { UsageRepository } from '../modules/statistics/usage.repository.js';
import type { StorageUsage } from '../modules/storages/storage-usage.js';
import { StoragesRepository } from '../modules/storages/storages.repository.js';
import { OutputsRepository } from '../modules/streams/outputs.repository.js';
import type { StreamCatalog } from '../modules/streams/stream-catalog.js';
import { StreamsRepository } from '../modules/streams/streams.repository.js';
import { TranscodeRepository } from '../modules/transcode/transcode.repository.js';
import type { Db } from './database.js';

/**
 * Every repository on one connection, made in this one place: the app's unit of work runs on the pool
 * and serves every request; `transaction(work)` hands `work` a unit of work on one transaction, so what it
 * does is done all or nothing (node report batches get one as `context.uow`).
 *
 * A service is given the part it may use (`Scope`): its module's repositories, the audit log, access, and
 * the ports other modules expose here (`credentials`, `sessionRevocation`, `streamCatalog`, `storageUsage`); never another
 * module's repository.
 */
export class UnitOfWork {
  /** Who may use what (modules/access): every module's ownership and node checks. */
  readonly access: Access;
  readonly accounts: AccountsRepository;
  readonly audit: AuditRepository;
  readonly sessions: SessionsRepository;
  readonly apiKeys: ApiKeysRepository;
  readonly loginThrottle: LoginThrottleRepository;
  readonly twoFactor: TwoFactorRepository;
  readonly health: HealthRepository;
  readonly nodes: NodesRepository;
  readonly nodeReports: NodeReportsRepository;
  readonly nodeGroups: NodeGroupsRepository;
  readonly storages: StoragesRepository;
  readonly streams: StreamsRepository;
  readonly outputs: OutputsRepository;
  readonly transcode: TranscodeRepository;
  readonly fallbacks: FallbacksRepository;
  readonly snapshots: SnapshotsRepository;
  readonly recordings: RecordingsRepository;
  readonly relays: RelaysRepository;
  readonly usage: UsageRepository;
  readonly metrics: MetricsRepository;
  readonly playbackKeys: PlaybackKeysRepository;

  /** The accounts module's port for sign-in: accounts with their password hashes. */
  readonly credentials: AccountCredentials;
  /** The auth module's port for the accounts module: revoking an account's sessions (new password) and keys (new role). */
  readonly sessionRevocation: SessionRevocation;
  /** The streams module's port: what other modules may read of streams. */
  readonly streamCatalog: StreamCatalog;
  /** The recordings module's port for the storages module: how many recordings use a storage. */
  readonly storageUsage: StorageUsage;

  constructor(private readonly db: Db) {
    this.access = new Access(new AccessRepository(db));
    this.accounts = new AccountsRepository(db);
    this.audit = new AuditRepository(db);
    this.sessions = new SessionsRepository(db);
    this.apiKeys = new ApiKeysRepository(db);
    this.loginThrottle = new LoginThrottleRepository(db);
    this.twoFactor = new TwoFactorRepository(db);
    this.health = new HealthRepository(db);
    this.nodes = new NodesRepository(db);
    this.nodeReports = new NodeReportsRepository(db);
    this.nodeGroups = new NodeGroupsRepository(db);
    this.storages = new StoragesRepository(db);
    this.streams = new StreamsRepository(db);
    this.outputs = new OutputsRepository(db);
    this.transcode = new TranscodeRepository(db);
    this.fallbacks = new FallbacksRepository(db);
    this.snapshots = new SnapshotsRepository(db);
    this.recordings = new RecordingsRepository(db);
    this.relays = new RelaysRepository(db);
    this.usage = new UsageRepository(db);
    this.metrics = new MetricsRepository(db);
    this.playbackKeys = new PlaybackKeysRepository(db);
    this.credentials = this.accounts;
    this.sessionRevocation = {
      revokeAccount: (accountId, now, keep) => this.sessions.revokeAccount(accountId, now, keep),
      revokeRoleCredentials: async (accountId, now) => {
        await this.sessions.revokeAccountAndImpersonations(accountId, now);
        await this.apiKeys.revokeAccount(accountId, now);
      },
    };
    this.streamCatalog = this.streams;
    this.storageUsage = { recordingsUsing: (storageId) => this.recordings.countByStorage(storageId) };
  }

  /** Runs `work` on one transaction (or, already inside one, on it): committed when it resolves. */
  transaction<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new UnitOfWork(trx)));
  }
}

/** The repositories and ports of a unit of work, by name. */
export type UnitOfWorkPart = Exclude<keyof UnitOfWork, 'transaction'>;

/**
 * The part of a unit of work a service may use, and transactions on that same part: e.g.
 * `Scope<'fallbacks' | 'access' | 'audit'>`. A whole unit of work is one.
 */
export type Scope<K extends UnitOfWorkPart> = Pick<UnitOfWork, K> & {
  transaction<T>(work: (uow: Scope<K>) => Promise<T>): Promise<T>;
};
