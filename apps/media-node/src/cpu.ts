import { availableParallelism } from 'node:os';
import { treeCpuSeconds } from '@streamcloud/proc';

/** Shares of the machine (0–100) between two samples. */
export interface CpuSample {
  /** The node's whole process tree. */
  percent: number;
  /** The processes under the node (its encoders: ffmpeg, nginx), not the node itself. */
  encoderPercent: number;
}

const ownSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** The share of the machine the node's process tree, and the encoders under it, used between two calls. */
export class CpuMeter {
  private last = { at: Date.now(), tree: treeCpuSeconds(process.pid), own: ownSeconds() };

  sample(): CpuSample {
    const now = { at: Date.now(), tree: treeCpuSeconds(process.pid), own: ownSeconds() };
    const elapsed = (now.at - this.last.at) / 1000;
    const share = (seconds: number) =>
      elapsed <= 0 ? 0 : Math.min(100, Math.max(0, (seconds / elapsed / availableParallelism()) * 100));
    const tree = now.tree - this.last.tree;
    const own = now.own - this.last.own;
    this.last = now;
    return { percent: share(tree), encoderPercent: share(tree - own) };
  }
}
