import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAYLIST_FRESH_MS, StandardHlsFiles } from './standard-files.js';

const playlistListing = (...names: string[]) =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:1\n${names.map((name) => `#EXTINF:1.000,\n${name}\n`).join('')}`;

describe('StandardHlsFiles', () => {
  let dir: string;
  let now: number;
  let files: StandardHlsFiles;
  const write = (name: string, content: string) => writeFileSync(join(dir, name), content);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'standard-files-'));
    now = 1_000_000;
    files = new StandardHlsFiles(() => now);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a playlist once for every viewer within PLAYLIST_FRESH_MS, then again', async () => {
    write('index.m3u8', playlistListing('1.ts'));
    expect(await files.playlist(dir)).toBe(playlistListing('1.ts'));
    write('index.m3u8', playlistListing('1.ts', '2.ts'));
    now += PLAYLIST_FRESH_MS - 1;
    expect(await files.playlist(dir)).toBe(playlistListing('1.ts'));
    expect(await files.playlist(dir, { fresh: true })).toBe(playlistListing('1.ts', '2.ts'));
    write('index.m3u8', playlistListing('2.ts'));
    now += PLAYLIST_FRESH_MS;
    expect(await files.playlist(dir)).toBe(playlistListing('2.ts'));
  });

  it('does not remember that a folder had no playlist: a first viewer waiting for it sees it at once', async () => {
    expect(await files.playlist(dir)).toBeNull();
    write('index.m3u8', playlistListing('1.ts'));
    expect(await files.playlist(dir)).toBe(playlistListing('1.ts'));
  });

  it('keeps a fragment the playlist lists (complete) and reads again one it does not (being written)', async () => {
    write('index.m3u8', playlistListing('1.ts'));
    write('1.ts', 'whole fragment');
    write('2.ts', 'first half');
    expect((await files.fragment(join(dir, '1.ts')))?.toString()).toBe('whole fragment');
    expect((await files.fragment(join(dir, '2.ts')))?.toString()).toBe('first half');
    write('1.ts', 'changed on disk');
    write('2.ts', 'first half and the rest');
    // The kept copy answers: no open, stat or read of the disk for each viewer.
    expect((await files.fragment(join(dir, '1.ts')))?.toString()).toBe('whole fragment');
    // Not listed when read: nobody was given a part of it to keep.
    expect((await files.fragment(join(dir, '2.ts')))?.toString()).toBe('first half and the rest');
    expect(await files.fragment(join(dir, '3.ts'))).toBeNull();
  });

  it('keeps a fragment no longer than nginx keeps its file (a minute)', async () => {
    write('index.m3u8', playlistListing('1.ts'));
    write('1.ts', 'first');
    await files.fragment(join(dir, '1.ts'));
    rmSync(join(dir, '1.ts'));
    now += 59_000;
    expect((await files.fragment(join(dir, '1.ts')))?.toString()).toBe('first');
    now += 1_000;
    expect(await files.fragment(join(dir, '1.ts'))).toBeNull();
  });
});
