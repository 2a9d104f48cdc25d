import { readdirSync, readFileSync } from 'node:fs';

/**
 * What a process tree uses, read from Linux's /proc: the media node's load reports, and the tests' and
 * benchmarks' measurements of the processes they start.
 */

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by a process and all its descendants (Linux /proc; 0 elsewhere). */
export function treeCpuSeconds(rootPid: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of entries) {
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields start after the last ')'.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      // utime + stime, plus cutime + cstime: the children it has already reaped.
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  for (const [pid, used] of ticks) {
    let cursor: number | undefined = pid;
    for (let depth = 0; cursor && depth < 64; depth++) {
      if (cursor === rootPid) {
        total += used;
        break;
      }
      cursor = parent.get(cursor);
    }
  }
  return total / TICKS_PER_SECOND;
}

/** The processes whose command line `matches` (Linux /proc; none elsewhere). */
export function processIds(matches: (command: string) => boolean): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of entries) {
    try {
      if (matches(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))) found.push(Number(pid));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** The processes whose parent is `parentPid` (Linux /proc; none elsewhere): an API's cluster workers. */
export function childProcessIds(parentPid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries
    .filter((pid) => {
      try {
        const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]) === parentPid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
