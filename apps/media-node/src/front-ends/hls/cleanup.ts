import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Fragments are deleted this long after they were written, a stream's directory when it was idle this long. */
const FRAGMENT_KEEP_MS = 60_000;
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
        const info = await stat(join(dir, entry));
        if (now - info.mtimeMs > FRAGMENT_KEEP_MS) await rm(join(dir, entry), { force: true });
      }
    } catch {
      // written or deleted meanwhile
    }
  }
}
