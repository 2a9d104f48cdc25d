import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir, restrictDataDir } from './data-dir.js';
import { openDatabase } from './database.js';

const made: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'streamcloud-data-dir-'));
  made.push(dir);
  return dir;
};
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Every directory and file under `dir` (itself included) with its mode. */
async function modes(dir: string): Promise<Array<[string, number, 'dir' | 'file']>> {
  const found: Array<[string, number, 'dir' | 'file']> = [[dir, await modeOf(dir), 'dir']];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) found.push([path, await modeOf(path), 'dir']);
    else if (entry.isFile()) found.push([path, await modeOf(path), 'file']);
  }
  return found;
}

describe('restrictDataDir', () => {
  it('makes directories 0700 and files 0600, without following links', async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    await writeFile(join(outside, 'not-ours'), 'x', { mode: 0o644 });
    await mkdir(join(dir, 'base', 'sub'), { recursive: true, mode: 0o755 });
    await writeFile(join(dir, 'base', 'sub', 'table'), 'rows', { mode: 0o666 });
    await symlink(join(outside, 'not-ours'), join(dir, 'link'));
    await restrictDataDir(dir, { recursive: true });
    for (const [path, mode, kind] of await modes(dir)) expect(mode, path).toBe(kind === 'dir' ? 0o700 : 0o600);
    expect(await modeOf(join(outside, 'not-ours'))).toBe(0o644);
  });

  it('restricts only the directory itself unless told to recurse', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'someone-else'), 'x', { mode: 0o644 });
    await restrictDataDir(join(dir, 'new'), { recursive: false });
    await restrictDataDir(dir, { recursive: false });
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(dir, 'new'))).toBe(0o700);
    expect(await modeOf(join(dir, 'someone-else'))).toBe(0o644);
  });
});

describe('the embedded database directory', () => {
  it('is owner-only on creation and again on start, and serves one opener at a time', async () => {
    const dir = join(await tempDir(), 'pglite');
    const first = await openDatabase({ dataDir: dir });
    try {
      for (const [path, mode, kind] of await modes(dir)) expect(mode, path).toBe(kind === 'dir' ? 0o700 : 0o600);
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await first.close();
    }
    await chmod(join(dir, 'PG_VERSION'), 0o666);
    await chmod(dir, 0o755);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
    expect(await modeOf(join(dir, 'PG_VERSION'))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  }, 120_000);
});

describe('lockDataDir', () => {
  it('refuses a second holder with a message that says what to do, and is free once released', async () => {
    const dir = await tempDir();
    const lock = await lockDataDir(dir);
    const refused = await lockDataDir(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toMatch(/Another Streamcloud server is already using the data directory/);
    expect((refused as Error).message).toContain('DATABASE_URL');
    await lock.release();
    await (await lockDataDir(dir)).release();
  });

  it('is free again as soon as its holder is killed', async () => {
    const dir = await tempDir();
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${new URL('./data-dir.ts', import.meta.url).pathname}').then(async (m) => {
          await m.lockDataDir(${JSON.stringify(dir)});
          process.stdout.write('locked\\n');
          setInterval(() => {}, 1000);
        })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
      holder.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
    });
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirInUseError);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    await (await lockDataDir(dir)).release();
  });
});
