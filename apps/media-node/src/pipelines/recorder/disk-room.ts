import { statfs } from 'node:fs/promises';

/**
 * Below this much free space in the recordings folder a new file is not started, and a file the disk filled is
 * not closed and uploaded yet: closing one writes its journal record (and a repair, a second copy), and a file
 * started into a full disk fails at once — each such failure would be a recording cut for nothing.
 */
export const RECORDING_MIN_FREE_BYTES = 16 * 1024 ** 2;
/** How often a recording waiting for room looks again. */
export const ROOM_POLL_MS = 1000;

/** Bytes an unprivileged writer can still use in the folder's file system; null when it cannot be told. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** Whether the folder has room for a recording (a file system that cannot be asked is taken to have room). */
export async function hasRoom(dir: string, minFree = RECORDING_MIN_FREE_BYTES): Promise<boolean> {
  const free = await freeBytes(dir);
  return free === null || free >= minFree;
}

export const describeFree = (free: number | null) => (free === null ? 'unknown' : `${(free / 1e6).toFixed(1)} MB free`);

/**
 * Waits until the folder has room (or `signal` aborts: answers false); `onWait` is told once, with the free space,
 * when there is none at first.
 */
export async function waitForRoom(
  dir: string,
  o: { signal: AbortSignal; onWait(free: number | null): void; minFree?: number; pollMs?: number },
): Promise<boolean> {
  let told = false;
  for (;;) {
    if (o.signal.aborted) return false;
    const free = await freeBytes(dir);
    if (free === null || free >= (o.minFree ?? RECORDING_MIN_FREE_BYTES)) return true;
    if (!told) o.onWait(free);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, o.pollMs ?? ROOM_POLL_MS).unref());
  }
}
