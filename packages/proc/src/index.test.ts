import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processIds, treeCpuSeconds } from './index.js';

describe('the process table', () => {
  it("finds a process by its command line and counts a tree's CPU seconds", async () => {
    // A child that burns CPU for 0.3 s, then waits; the marker is on its command line.
    const marker = `proc-test-${process.pid}-${Date.now()}`;
    const busy = 'const end = Date.now() + 300; while (Date.now() < end); setTimeout(() => {}, 30_000)';
    const child = spawn(process.execPath, ['-e', busy, marker]);
    try {
      await expect.poll(() => processIds((command) => command.includes(marker))).toEqual([child.pid]);
      await expect.poll(() => treeCpuSeconds(child.pid ?? 0), { timeout: 10_000 }).toBeGreaterThan(0.2);
      // The child is in this process's tree.
      expect(treeCpuSeconds(process.pid)).toBeGreaterThan(treeCpuSeconds(child.pid ?? 0));
      expect(processIds(() => false)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
