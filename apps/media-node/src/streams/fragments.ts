import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The newest complete HLS fragment nginx-rtmp wrote for a stream name (its playlist lists only complete
 * ones, each starting at a keyframe); null when there is none yet, or only fragments older than `notBefore`
 * (left from an earlier push of the same name).
 */
export async function newestFragment(hlsDir: string, hlsName: string, notBefore: number): Promise<string | null> {
  const dir = join(hlsDir, hlsName);
  try {
    const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8');
    const fragments = playlist.split('\n').filter((line) => line && !line.startsWith('#'));
    const last = fragments[fragments.length - 1];
    if (!last) return null;
    const file = join(dir, last.trim());
    const info = await stat(file);
    return info.mtimeMs >= notBefore - 1000 ? file : null;
  } catch {
    return null;
  }
}

/** Waits until `read` answers something, polling every `everyMs` while `going()` holds; null when it stops. */
export async function poll<T>(read: () => Promise<T | null>, going: () => boolean, everyMs = 200): Promise<T | null> {
  while (going()) {
    const found = await read();
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return null;
}
