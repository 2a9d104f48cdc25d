import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FRAGMENT_KEEP_MS, removeOldFragments } from './cleanup.js';

describe('removeOldFragments', () => {
  let hlsDir: string;
  beforeEach(() => {
    hlsDir = mkdtempSync(join(tmpdir(), 'hls-cleanup-'));
  });
  afterEach(() => rmSync(hlsDir, { recursive: true, force: true }));

  const folder = (name: string, files: string[], mtimeMs?: number) => {
    const dir = join(hlsDir, name);
    mkdirSync(dir);
    for (const file of files) {
      writeFileSync(join(dir, file), 'x');
      if (mtimeMs !== undefined) utimesSync(join(dir, file), mtimeMs / 1000, mtimeMs / 1000);
    }
    if (mtimeMs !== undefined) utimesSync(dir, mtimeMs / 1000, mtimeMs / 1000);
    return dir;
  };

  it("deletes a live stream's fragments older than FRAGMENT_KEEP_MS by the start time in their names", async () => {
    const now = Date.now();
    const old = `${now - FRAGMENT_KEEP_MS - 1000}.ts`;
    const recent = `${now - 5000}.ts`;
    // Written just now, but named a minute and more ago: the name is what counts (no stat of each fragment).
    const dir = folder('live', ['index.m3u8', old, recent, 'unnamed.ts']);
    // A fragment not named by its start time is judged by when it was last written.
    utimesSync(join(dir, 'unnamed.ts'), (now - FRAGMENT_KEEP_MS - 1000) / 1000, (now - FRAGMENT_KEEP_MS - 1000) / 1000);
    await removeOldFragments(hlsDir, now);
    expect(existsSync(join(dir, old))).toBe(false);
    expect(existsSync(join(dir, 'unnamed.ts'))).toBe(false);
    expect(existsSync(join(dir, recent))).toBe(true);
    expect(existsSync(join(dir, 'index.m3u8'))).toBe(true);
  });

  it('deletes the folder of a stream gone for two minutes, and keeps one whose push just started', async () => {
    const now = Date.now();
    const gone = folder('gone', ['index.m3u8', `${now - 200_000}.ts`], now - 130_000);
    const starting = folder('starting', [`${now - 500}.ts`]);
    await removeOldFragments(hlsDir, now);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(starting)).toBe(true);
  });
});
