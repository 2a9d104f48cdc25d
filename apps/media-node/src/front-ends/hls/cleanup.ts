import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fragmentStartMs } from './playlists.js';

/** Fragments are deleted this long after they were written, a stream's directory when it was idle this long. */
export const FRAGMENT_KEEP_MS = 60_000;
const DIRECTORY_KEEP_MS = 120_000;

/** nginx-rtmp's HLS directory: old fragments and the directories of streams long gone are deleted. */
export async function removeOldFragments(hlsDir: string, now: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(hlsDir);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(hlsDir, name);
    try {
      const files = await readdir(dir);
      const playlist = await stat(join(dir, 'index.m3u8')).catch(() => null);
      if (!playlist || now - playlist.mtimeMs > DIRECTORY_KEEP_MS) {
        // Gone only when nothing in it, nor the directory itself (a push that just started), is recent.
        const times = await Promise.all(
          [dir, ...files.map((entry) => join(dir, entry))].map((path) => stat(path).then((info) => info.mtimeMs)),
        );
        if (times.every((mtime) => now - mtime > DIRECTORY_KEEP_MS)) await rm(dir, { recursive: true, force: true });
        continue;
      }
      for (const entry of files) {
        if (!entry.endsWith('.ts')) continue;
        // Its name says when it started (a few seconds before its last write): no stat of every fragment of every
        // stream every sweep (at 50 streams that was ~1.5 s of the node's main thread per 20 s).
        const started = fragmentStartMs(entry) ?? (await stat(join(dir, entry))).mtimeMs;
        if (now - started > FRAGMENT_KEEP_MS) await rm(join(dir, entry), { force: true });
      }
    } catch {
      // written or deleted meanwhile
    }
  }
}
