import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childProcessIds, processIds, treeCpuSeconds } from './index.js';

describe('the process table', () => {
  it("finds a process by its command line and counts a tree's CPU seconds", async () => {
    // A child that burns 0.3 s of CPU (its own CPU time, not the clock's: the machine may be busy), then waits;
    // the marker is on its command line.
    const marker = `proc-test-${process.pid}-${Date.now()}`;
    const cpu = '(() => { const { user, system } = process.cpuUsage(); return user + system; })';
    const busy = `const used = ${cpu}; const end = used() + 300000; while (used() < end); setTimeout(() => {}, 30_000)`;
    const child = spawn(process.execPath, ['-e', busy, marker]);
    try {
      await expect.poll(() => processIds((command) => command.includes(marker))).toEqual([child.pid]);
      await expect.poll(() => treeCpuSeconds(child.pid ?? 0), { timeout: 10_000 }).toBeGreaterThan(0.2);
      // The child is in this process's tree.
      expect(treeCpuSeconds(process.pid)).toBeGreaterThan(treeCpuSeconds(child.pid ?? 0));
      expect(processIds(() => false)).toEqual([]);
      expect(childProcessIds(process.pid)).toContain(child.pid);
      expect(childProcessIds(child.pid ?? 0)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  }, 20_000);
});
