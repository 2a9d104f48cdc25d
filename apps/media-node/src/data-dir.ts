import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The node's own temporary data directories: `streamcloud-media-` and mkdtemp's six characters, nothing else. */
const PREFIX = 'streamcloud-media-';
const OWN_NAME = /^streamcloud-media-[A-Za-z0-9]{6}$/;
/** The marker in each: which process made it (pid and start time, so a reused pid is not taken for it). */
const OWNER_FILE = 'owner.json';
/** A directory of ours without a marker (made by an older node) is left alone unless untouched this long. */
const UNMARKED_AGE_MS = 3600_000;

interface Owner {
  pid: number;
  startTime: string | null;
}

/** When a process started (clock ticks since boot, /proc/<pid>/stat field 22); null when it is not running. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(owner: Owner): boolean {
  const startTime = startTimeOf(owner.pid);
  return startTime !== null && (owner.startTime === null || owner.startTime === startTime);
}

/** Whether a leftover directory of ours may go: its process is gone (or, unmarked, it was idle an hour). */
function abandoned(dir: string): boolean {
  try {
    return !alive(JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Owner);
  } catch {
    // No marker: an older node's directory; its nginx pid file says whether that node still runs.
    try {
      const pid = Number(readFileSync(join(dir, 'nginx', 'nginx.pid'), 'utf8').trim());
      if (pid > 0 && startTimeOf(pid) !== null) return false;
    } catch {
      // no pid file either
    }
    try {
      return Date.now() - statSync(dir).mtimeMs > UNMARKED_AGE_MS;
    } catch {
      return false;
    }
  }
}

/**
 * A temporary data directory for a node started without MEDIA_DATA_DIR: made in the system's temp directory
 * with a marker naming this process, removed by `remove()` when the node stops. Making one first removes
 * what earlier node processes left there (killed ones cannot clean up); a directory whose process still
 * runs, or that is not one of ours, is never touched.
 */
export function temporaryDataDir(): { path: string; removedLeftovers: string[]; remove(): void } {
  const base = tmpdir();
  const path = mkdtempSync(join(base, PREFIX));
  writeFileSync(join(path, OWNER_FILE), JSON.stringify({ pid: process.pid, startTime: startTimeOf(process.pid) }));
  const removedLeftovers: string[] = [];
  for (const name of readdirSync(base)) {
    const dir = join(base, name);
    if (dir === path || !OWN_NAME.test(name) || !abandoned(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    removedLeftovers.push(dir);
  }
  return { path, removedLeftovers, remove: () => rmSync(path, { recursive: true, force: true }) };
}
