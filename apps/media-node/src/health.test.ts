import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeHealth } from '@streamcloud/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { HEALTH_LIMITS, healthProblems, nodeHealth } from './health.js';

const GB = 1024 ** 3;
const disk = (freeBytes: number, totalBytes: number) => ({ path: '/srv/node', freeBytes, totalBytes, what: ['data'] });
const noBacklog = { files: 0, bytes: 0 };

describe('node health', () => {
  const root = mkdtempSync(join(tmpdir(), 'health-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('measures each file system the folders are on once, and leaves out a folder not created yet', () => {
    const data = join(root, 'data');
    const recordings = join(data, 'recordings');
    mkdirSync(recordings, { recursive: true });
    const health = nodeHealth({
      folders: [
        { what: 'data', path: data },
        { what: 'recordings', path: recordings },
        { what: 'fallbacks', path: join(root, 'absent') },
      ],
      encoderCpuPercent: 12.345,
      uploadBacklog: { files: 1, bytes: 2048 },
    });
    expect(health.disks).toHaveLength(1);
    expect(health.disks[0]?.path).toBe(data);
    expect(health.disks[0]?.totalBytes).toBeGreaterThan(0);
    expect(health.disks[0]?.freeBytes).toBeGreaterThan(0);
    expect(health.encoderCpuPercent).toBe(12.35);
    expect(health.uploadBacklog).toEqual({ files: 1, bytes: 2048 });
    expect(NodeHealth.parse(health)).toEqual(health);
  });

  it('sees a disk nearly full below 10 % or 1 GB free, saying where and what it holds', () => {
    expect(healthProblems([disk(20 * GB, 100 * GB)], 0, noBacklog)).toEqual([]);
    expect(healthProblems([disk(9 * GB, 100 * GB)], 0, noBacklog)).toEqual([
      'Disk nearly full: 9.0 GB free of 100.0 GB at /srv/node (data)',
    ]);
    expect(healthProblems([disk(0.5 * GB, 2 * GB)], 0, noBacklog)).toHaveLength(1);
  });

  it('sees encoders short of CPU above the limit, and an upload backlog past the limit', () => {
    expect(healthProblems([], HEALTH_LIMITS.encoderCpuPercent, noBacklog)).toEqual([]);
    expect(healthProblems([], 95.4, noBacklog)).toEqual([
      'Encoders use 95 % of the CPU: transcodes and WebRTC feeds may fall behind real time',
    ]);
    expect(healthProblems([], 0, { files: HEALTH_LIMITS.uploadFiles, bytes: GB })).toEqual([]);
    expect(healthProblems([], 0, { files: 4, bytes: 3 * GB })).toEqual([
      '4 recordings wait to upload (3.0 GB): is their storage reachable?',
    ]);
  });

  it('stays within the contract whatever the paths, so the load report it goes with is never refused', () => {
    const long = join(root, 'x'.repeat(200), 'y'.repeat(200), 'z'.repeat(200));
    mkdirSync(long, { recursive: true });
    const health = nodeHealth({
      folders: [{ what: 'data', path: long }],
      encoderCpuPercent: 100,
      uploadBacklog: noBacklog,
    });
    expect(() => NodeHealth.parse(health)).not.toThrow();
  });
});
