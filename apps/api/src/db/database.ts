import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataDir, restrictDataDir } from './data-dir.js';
import { PGlitePool } from './pglite-pool.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** The embedded instance, when the engine is PGlite (for dumps in tests and tools). */
  pglite?: PGlite;
  close(): Promise<void>;
}

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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
    const close = async () => {
      await db.destroy();
      await lock?.release();
    };
    return { db, engine: 'pglite', pglite, close };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}
