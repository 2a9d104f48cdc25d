import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, realpath, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** Only the server's own user may read or change its data: sessions, password hashes, stream tokens, keys. */
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/**
 * Creates the directory owner-only, or makes an existing one so; with `recursive`, everything under it too:
 * directories 0700, files 0600 (symbolic links are left alone, never followed). Only for directories the
 * server owns whole: DATA_DIR itself is restricted alone (it may hold other things), its `pglite`
 * directory recursively. PGlite creates its files 0666 whatever the umask, so this runs on creation and
 * on every start; files it adds meanwhile sit in 0700 directories, which no other user can enter.
 */
export async function restrictDataDir(dir: string, options: { recursive: boolean }): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    await chmod(current, DATA_DIR_MODE);
    if (!options.recursive) break;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) await chmod(path, DATA_FILE_MODE);
    }
  }
}

export class DataDirInUseError extends Error {
  constructor(readonly dir: string) {
    super(
      `Another Streamcloud server is already using the data directory ${dir}: an embedded database (PGlite) ` +
        "serves one server only, and two would lose each other's writes. Stop the other server first, or set " +
        'DATABASE_URL to a PostgreSQL server that several servers can share.',
    );
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Takes the data directory for this process until `release` or the process ends, however it ends: the
 * lock is a listening Unix socket, which the kernel closes with the process, so a crash never leaves a
 * stale lock behind. On Linux the socket lives in the abstract namespace under a name derived from the
 * directory's real path (nothing on disk, binding is atomic); elsewhere it is a socket file in the
 * directory, taken over when nothing answers on it. Throws DataDirInUseError when another process holds it.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
  const real = await realpath(dir);
  const path =
    process.platform === 'linux'
      ? `\0streamcloud-data-dir-${createHash('sha256').update(real).digest('hex')}`
      : join(real, '.streamcloud.lock');
  let server: Server;
  try {
    server = await listen(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (path.startsWith('\0') || (await answers(path))) throw new DataDirInUseError(real);
    // A socket file left by a process that ended: nothing listens on it any more.
    await unlink(path).catch(() => undefined);
    try {
      server = await listen(path);
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new DataDirInUseError(real);
      throw retryError;
    }
  }
  // The lock must not keep the process alive on its own.
  server.unref();
  return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function listen(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen({ path, exclusive: true }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Whether a process listens on a socket file. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
