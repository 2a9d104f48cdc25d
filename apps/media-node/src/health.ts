import { statfsSync, statSync } from 'node:fs';
import { NODE_HEALTH_LIMITS, type NodeHealth } from '@streamcloud/contract';

/** When what the node measures of itself becomes a problem an operator should see. */
export const HEALTH_LIMITS = {
  /** A disk with less free space than this share, or than `diskFreeBytes`, is nearly full. */
  diskFreeShare: 0.1,
  diskFreeBytes: 1024 ** 3,
  /** Encoders above this share of the machine drop frames and fall behind real time. */
  encoderCpuPercent: 90,
  /** Recordings waiting to upload past this many (a storage down, or uploads slower than recording). */
  uploadFiles: 3,
} as const;

export interface HealthInputs {
  /** The folders the node writes, by what they hold ('data', 'recordings'); one per file system is measured. */
  folders: ReadonlyArray<{ what: string; path: string }>;
  encoderCpuPercent: number;
  uploadBacklog: NodeHealth['uploadBacklog'];
}

const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

/** The free space of each file system the folders are on (a folder that cannot be read is left out). */
function disksOf(folders: HealthInputs['folders']): Array<NodeHealth['disks'][number] & { what: string[] }> {
  const byDevice = new Map<number, NodeHealth['disks'][number] & { what: string[] }>();
  for (const { what, path } of folders) {
    try {
      const { dev } = statSync(path);
      const known = byDevice.get(dev);
      if (known) {
        known.what.push(what);
        continue;
      }
      const fs = statfsSync(path);
      byDevice.set(dev, { path, freeBytes: fs.bavail * fs.bsize, totalBytes: fs.blocks * fs.bsize, what: [what] });
    } catch {
      // Not created yet (no recording so far): nothing to measure there.
    }
  }
  return [...byDevice.values()];
}

/** The problems the node's figures show, in words an operator acts on. */
export function healthProblems(
  disks: ReadonlyArray<NodeHealth['disks'][number] & { what: readonly string[] }>,
  encoderCpuPercent: number,
  uploadBacklog: NodeHealth['uploadBacklog'],
): string[] {
  const problems: string[] = [];
  for (const disk of disks) {
    const nearlyFull =
      disk.freeBytes < HEALTH_LIMITS.diskFreeBytes || disk.freeBytes < disk.totalBytes * HEALTH_LIMITS.diskFreeShare;
    if (nearlyFull)
      problems.push(
        `Disk nearly full: ${gigabytes(disk.freeBytes)} free of ${gigabytes(disk.totalBytes)} at ${disk.path} (${disk.what.join(', ')})`,
      );
  }
  if (encoderCpuPercent > HEALTH_LIMITS.encoderCpuPercent)
    problems.push(
      `Encoders use ${Math.round(encoderCpuPercent)} % of the CPU: transcodes and WebRTC feeds may fall behind real time`,
    );
  if (uploadBacklog.files > HEALTH_LIMITS.uploadFiles)
    problems.push(
      `${uploadBacklog.files} recordings wait to upload (${gigabytes(uploadBacklog.bytes)}): is their storage reachable?`,
    );
  return problems;
}

/** The node's health as it reports it with its load: figures, and the problems they show. */
export function nodeHealth(inputs: HealthInputs): NodeHealth {
  const disks = disksOf(inputs.folders);
  const problems = healthProblems(disks, inputs.encoderCpuPercent, inputs.uploadBacklog);
  // Within the contract's limits whatever the paths: a report the control plane refused would lose the load too.
  return {
    disks: disks.slice(0, NODE_HEALTH_LIMITS.disks).map(({ path, freeBytes, totalBytes }) => ({
      path: path.slice(0, NODE_HEALTH_LIMITS.diskPath),
      freeBytes,
      totalBytes,
    })),
    encoderCpuPercent: Math.round(inputs.encoderCpuPercent * 100) / 100,
    uploadBacklog: inputs.uploadBacklog,
    problems: problems
      .slice(0, NODE_HEALTH_LIMITS.problems)
      .map((problem) => problem.slice(0, NODE_HEALTH_LIMITS.problem)),
  };
}
