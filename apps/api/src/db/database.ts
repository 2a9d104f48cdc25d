import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir, restrictDataDir } from './data-dir.js';
import { PGlitePool } from './pglite-pool.js';
import { preparingRegisteredStatements } from './prepared-statements.js';
import type { Database } from './schema.js';
import { TransactionEvents } from './transaction-events.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** The embedded instance, when the engine is PGlite (for dumps in tests and tools). */
  pglite?: PGlite;
  /**
   * Calls `onNotify` with the payload of every NOTIFY of `channel` (sent by any process, delivered when its
   * transaction commits) until the answered function is called. On PostgreSQL a dedicated connection
   * listens and reconnects after a loss: `onLost` is called when it is lost (or could not be made), and
   * `onNotify(null)` once it listens again, as notifications sent meanwhile are lost. On PGlite a
   * notification is delivered before the statement that committed it returns.
   */
  listen(
    channel: string,
    onNotify: (payload: string | null) => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * Competes for the lead of the processes sharing this database (a PostgreSQL advisory lock on a
   * connection of its own, tried again every few seconds and lost with that connection); on PGlite this
   * process is the only one and leads. `leads()` answers whether it does now.
   */
  campaign(key: number): Promise<Leadership>;
  /** The begin and end of every transaction run on `db` (and the handles made from it with plugins). */
  transactions: TransactionEvents;
  close(): Promise<void>;
}

export interface Leadership {
  leads(): boolean;
  stop(): Promise<void>;
}

/** How long a query waits for a new connection to the PostgreSQL server. */
const DATABASE_CONNECT_TIMEOUT_MS = 5_000;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
/** Counters and byte totals fit a double; both drivers answer numbers, not strings. */
const toNumber = (value: string) => Number(value);

export type DatabaseOptions =
  | { url: string }
  | { dataDir: string; loadDataDir?: Blob }
  | { memory: true; loadDataDir?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      // A server that does not answer (a cut network, a host that is gone) fails the request with 503 after
      // this, instead of leaving it hanging until the client gives up.
      connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID || oid === NUMERIC_OID
            ? toNumber
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server ends (a restart, an administrator, a dropped database) is an error the
    // pool emits; it drops that client and connects anew on demand. Unheard, the error would end the process.
    pool.on('error', (error) => console.warn(`database: an idle connection ended (${error.message})`));
    pool.on('connect', (client) => {
      // A connection that ends while checked out (the server killed or restarted under a transaction) emits
      // 'error' on its client, which pg-pool listens to only while the client is idle: unheard, it would end
      // the process. The query or transaction using it fails with that error already (answered 503).
      client.on('error', () => undefined);
      preparingRegisteredStatements(client);
    });
    const transactions = new TransactionEvents();
    const db = new Kysely<Database>({ dialect: transactions.watching(new PostgresDialect({ pool })) });
    return {
      db,
      engine: 'postgres',
      transactions,
      listen: (channel, onNotify, onLost) => listenOnPostgres(options.url, channel, onNotify, onLost),
      campaign: (key) => campaignOnPostgres(options.url, key),
      close: () => db.destroy(),
    };
  }
  const dataDir = 'dataDir' in options ? options.dataDir : undefined;
  // One server per data directory (two would lose each other's writes), and only its user may read it.
  const lock = dataDir ? await lockDataDir(dataDir) : null;
  try {
    if (dataDir) await restrictDataDir(dataDir, { recursive: true });
    const pglite = await PGlite.create(dataDir ?? 'memory://', {
      parsers: { [INT8_OID]: toNumber, [NUMERIC_OID]: toNumber },
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    if (dataDir) await restrictDataDir(dataDir, { recursive: true });
    const transactions = new TransactionEvents();
    const db = new Kysely<Database>({
      dialect: transactions.watching(new PostgresDialect({ pool: new PGlitePool(pglite) })),
    });
    const close = async () => {
      await db.destroy();
      await lock?.release();
    };
    const listen = async (channel: string, onNotify: (payload: string | null) => void) => {
      const unsubscribe = pglite.onNotification((name, payload) => {
        if (name === channel) onNotify(payload);
      });
      // Through the pool, so it never lands inside another caller's open transaction.
      await sql`listen ${sql.id(channel)}`.execute(db);
      return async () => unsubscribe();
    };
    const campaign = async () => ({ leads: () => true, stop: async () => undefined });
    return { db, engine: 'pglite', pglite, listen, campaign, transactions, close };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

const LISTEN_RETRY_MS = 2_000;

/** A connection of its own that LISTENs, reconnecting after a loss until the answered function stops it. */
async function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string | null) => void,
  onLost?: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => {
      if (client === next) reconnect();
    });
    next.on('end', () => {
      if (client === next) reconnect();
    });
    client = next;
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
  };
  const reconnect = () => {
    client = null;
    if (stopped || retry) return;
    onLost?.();
    retry = setTimeout(() => {
      retry = undefined;
      if (stopped) return;
      // Whatever was notified while the connection was down is looked for now.
      connect()
        .then(() => onNotify(null))
        .catch(() => reconnect());
    }, LISTEN_RETRY_MS);
    retry.unref();
  };
  await connect().catch(() => reconnect());
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = null;
    await current?.end().catch(() => undefined);
  };
}

const CAMPAIGN_RETRY_MS = 2_000;

/** Holds the advisory lock `key` on a connection of its own once it can, trying again until stopped. */
async function campaignOnPostgres(url: string, key: number): Promise<Leadership> {
  let stopped = false;
  let leading = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  const again = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void attempt();
    }, CAMPAIGN_RETRY_MS);
    timer.unref();
  };
  const attempt = async (): Promise<void> => {
    if (stopped) return;
    try {
      if (!client) {
        const next = new pg.Client({ connectionString: url });
        // The lock goes with its connection: another process may take the lead meanwhile.
        const lost = () => {
          if (client !== next) return;
          client = null;
          leading = false;
          again();
        };
        next.on('error', lost);
        next.on('end', lost);
        client = next;
        await next.connect();
      }
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      leading = result.rows[0]?.locked === true;
    } catch {
      leading = false;
      await client?.end().catch(() => undefined);
      client = null;
    }
    if (!leading) again();
  };
  await attempt();
  return {
    leads: () => leading,
    stop: async () => {
      stopped = true;
      leading = false;
      clearTimeout(timer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
