import { availableParallelism } from 'node:os';
import { treeCpuSeconds } from '@streamcloud/proc';

/** The share of the machine (0–100) the node's process tree used between two calls. */
export class CpuMeter {
  private last = { at: Date.now(), seconds: treeCpuSeconds(process.pid) };

  sample(): number {
    const now = Date.now();
    const seconds = treeCpuSeconds(process.pid);
    const elapsed = (now - this.last.at) / 1000;
    const used = seconds - this.last.seconds;
    this.last = { at: now, seconds };
    if (elapsed <= 0) return 0;
    return Math.min(100, Math.max(0, (used / elapsed / availableParallelism()) * 100));
  }
}
