import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers.js';
import type { Db } from './database.js';

const backendPid = async (db: Db) =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid ?? 0;

describe('the PostgreSQL pool', () => {
  // Only a PostgreSQL server can end a connection from its side; the PGlite run of the suite has none.
  it.runIf(Boolean(inject('databaseServerUrl')))(
    'survives the server ending an idle connection, and goes on with the others',
    async () => {
      const database = await openTestDatabase();
      try {
        // Two connections in the pool: one held while the other answers.
        const pids = await database.db
          .connection()
          .execute(async (held) => [await backendPid(held), await backendPid(database.db)]);
        expect(new Set(pids).size).toBe(2);
        // Holding one, end the other while it is idle in the pool.
        const ended = await database.db.connection().execute(async (held) => {
          const own = await backendPid(held);
          const idle = pids.find((pid) => pid !== own);
          return (await sql<{ ended: boolean }>`select pg_terminate_backend(${idle}) as ended`.execute(held)).rows[0]
            ?.ended;
        });
        expect(ended).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await backendPid(database.db)).toEqual(expect.any(Number));
      } finally {
        await database.close();
      }
    },
  );
});
