import { describe, expect, it } from 'vitest';
import { type ConditionSpec, type EvaluatedSample, evaluateCondition } from './rule-evaluation.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const TTL = 60_000;
const at = (secondsBeforeNow: number) => new Date(NOW.getTime() - secondsBeforeNow * 1000);
const nodes = [
  { id: 'a', bandwidthLimitMbps: 1000 },
  { id: 'b', bandwidthLimitMbps: 1000 },
];
/** A sample every 10 s from `from` seconds ago to now, for each node, with the given values. */
const steady = (from: number, cpuPercent: number, bandwidthMbps = 0, ids = ['a', 'b']): EvaluatedSample[] =>
  ids.flatMap((nodeId) =>
    Array.from({ length: Math.floor(from / 10) + 1 }, (_, index) => ({
      nodeId,
      at: at(from - index * 10),
      cpuPercent,
      bandwidthMbps,
    })),
  );
const cpu = (comparison: 'More' | 'Less', value: number, duration: number): ConditionSpec => ({
  type: 'CPUGroupAvg',
  comparison,
  value,
  duration,
});

describe('CPUGroupAvg', () => {
  it('More holds only strictly above the value', () => {
    expect(evaluateCondition(cpu('More', 80, 0), nodes, steady(30, 80.01), NOW, TTL).holds).toBe(true);
    expect(evaluateCondition(cpu('More', 80, 0), nodes, steady(30, 80), NOW, TTL).holds).toBe(false);
  });

  it('Less holds only strictly below the value', () => {
    expect(evaluateCondition(cpu('Less', 20, 0), nodes, steady(30, 19.99), NOW, TTL).holds).toBe(true);
    expect(evaluateCondition(cpu('Less', 20, 0), nodes, steady(30, 20), NOW, TTL).holds).toBe(false);
  });

  it('averages the nodes', () => {
    const samples = [...steady(30, 90, 0, ['a']), ...steady(30, 60, 0, ['b'])];
    const evaluation = evaluateCondition(cpu('More', 74, 0), nodes, samples, NOW, TTL);
    expect(evaluation).toMatchObject({ holds: true, metric: 75 });
    expect(evaluateCondition(cpu('More', 75, 0), nodes, samples, NOW, TTL).holds).toBe(false);
  });

  it('the value bounds 0 and 100 work', () => {
    expect(evaluateCondition(cpu('More', 0, 0), nodes, steady(10, 0.1), NOW, TTL).holds).toBe(true);
    expect(evaluateCondition(cpu('Less', 100, 0), nodes, steady(10, 99.9), NOW, TTL).holds).toBe(true);
    expect(evaluateCondition(cpu('More', 100, 0), nodes, steady(10, 100), NOW, TTL).holds).toBe(false);
  });

  it('must hold over the whole duration: history reaching back exactly to the window start is enough', () => {
    // samples from 60 s ago: the window [now-60, now] is covered
    expect(evaluateCondition(cpu('More', 80, 60), nodes, steady(60, 90), NOW, TTL).holds).toBe(true);
    // samples only from 59 s ago: the window's start has no load
    const late = steady(60, 90).map((sample) => ({ ...sample, at: new Date(sample.at.getTime() + 1000) }));
    expect(evaluateCondition(cpu('More', 80, 60), nodes, late, NOW, TTL).holds).toBe(false);
  });

  it('one sample in the window that fails the comparison breaks it', () => {
    const samples = steady(60, 90).map((sample) =>
      sample.nodeId === 'a' && sample.at.getTime() === at(30).getTime() ? { ...sample, cpuPercent: 10 } : sample,
    );
    // (10 + 90) / 2 = 50 at now-30
    expect(evaluateCondition(cpu('More', 80, 60), nodes, samples, NOW, TTL).holds).toBe(false);
    // the same dip before the window does not matter
    expect(evaluateCondition(cpu('More', 80, 20), nodes, samples, NOW, TTL).holds).toBe(true);
  });

  it('a dip right at the window start counts, one just before does not', () => {
    // node a reports 10 % at now-60, then 90 % from now-59 on
    const samples = [
      ...steady(60, 90, 0, ['b']),
      { nodeId: 'a', at: at(61), cpuPercent: 90, bandwidthMbps: 0 },
      { nodeId: 'a', at: at(60), cpuPercent: 10, bandwidthMbps: 0 },
      { nodeId: 'a', at: at(59), cpuPercent: 90, bandwidthMbps: 0 },
    ];
    expect(evaluateCondition(cpu('More', 80, 60), nodes, samples, NOW, TTL).holds).toBe(false);
    expect(evaluateCondition(cpu('More', 80, 59), nodes, samples, NOW, TTL).holds).toBe(true);
  });

  it('duration 0 looks at the latest load only', () => {
    const samples = [
      { nodeId: 'a', at: at(20), cpuPercent: 10, bandwidthMbps: 0 },
      { nodeId: 'a', at: at(1), cpuPercent: 95, bandwidthMbps: 0 },
    ];
    expect(evaluateCondition(cpu('More', 80, 0), nodes, samples, NOW, TTL).holds).toBe(true);
  });

  it('a node whose last sample is older than the sample age limit no longer counts', () => {
    const samples = [
      { nodeId: 'a', at: at(61), cpuPercent: 100, bandwidthMbps: 0 },
      { nodeId: 'b', at: at(5), cpuPercent: 50, bandwidthMbps: 0 },
    ];
    expect(evaluateCondition(cpu('More', 60, 0), nodes, samples, NOW, TTL)).toMatchObject({ holds: false, metric: 50 });
    // a sample exactly TTL old has expired; one just younger still counts
    const fresh = [{ ...samples[0]!, at: at(59.999) }, samples[1]!];
    expect(evaluateCondition(cpu('More', 60, 0), nodes, fresh, NOW, TTL)).toMatchObject({ holds: true, metric: 75 });
    const expired = [{ ...samples[0]!, at: at(60) }, samples[1]!];
    expect(evaluateCondition(cpu('More', 60, 0), nodes, expired, NOW, TTL).metric).toBe(50);
  });

  it('no load at all does not hold, neither More nor Less', () => {
    expect(evaluateCondition(cpu('More', 0, 0), nodes, [], NOW, TTL).holds).toBe(false);
    expect(evaluateCondition(cpu('Less', 100, 0), nodes, [], NOW, TTL).holds).toBe(false);
    expect(evaluateCondition(cpu('Less', 100, 0), [], [], NOW, TTL).holds).toBe(false);
  });

  it('a node going silent inside the window breaks a window that needs it', () => {
    // only node a reports, and its samples stop 90 s ago: they expire 30 s ago
    const samples = steady(120, 90, 0, ['a']).filter((sample) => sample.at <= at(90));
    expect(evaluateCondition(cpu('More', 80, 60), nodes, samples, NOW, TTL).holds).toBe(false);
  });

  it('ignores samples of other nodes and from the future', () => {
    const samples = [
      ...steady(30, 10),
      { nodeId: 'x', at: at(1), cpuPercent: 100, bandwidthMbps: 0 },
      { nodeId: 'a', at: new Date(NOW.getTime() + 1000), cpuPercent: 100, bandwidthMbps: 0 },
    ];
    expect(evaluateCondition(cpu('Less', 20, 30), nodes, samples, NOW, TTL)).toMatchObject({ holds: true, metric: 10 });
  });
});

describe('BWGroupAvg', () => {
  const bw = (comparison: 'More' | 'Less', value: number): ConditionSpec => ({
    type: 'BWGroupAvg',
    comparison,
    value,
    duration: 0,
  });

  it('is the bandwidth of the nodes against their limits, in percent', () => {
    const mixed = [
      { id: 'a', bandwidthLimitMbps: 1000 },
      { id: 'b', bandwidthLimitMbps: 3000 },
    ];
    const samples = [...steady(10, 0, 900, ['a']), ...steady(10, 0, 2100, ['b'])];
    // (900 + 2100) / (1000 + 3000) = 75 %
    expect(evaluateCondition(bw('More', 74.9), mixed, samples, NOW, TTL)).toMatchObject({
      holds: true,
      metric: 75,
    });
    expect(evaluateCondition(bw('More', 75), mixed, samples, NOW, TTL).holds).toBe(false);
    expect(evaluateCondition(bw('Less', 75.1), mixed, samples, NOW, TTL).holds).toBe(true);
  });

  it('counts as 100 % when the reporting nodes have no bandwidth limit', () => {
    const zero = [{ id: 'a', bandwidthLimitMbps: 0 }];
    expect(evaluateCondition(bw('More', 99), zero, steady(10, 0, 0, ['a']), NOW, TTL).metric).toBe(100);
  });
});

describe('GroupFull', () => {
  const full = (comparison: 'More' | 'Less', duration = 0): ConditionSpec => ({
    type: 'GroupFull',
    comparison,
    value: 50,
    duration,
  });

  it('More holds when every node is at its bandwidth limit or at 100 % CPU', () => {
    const samples = [...steady(10, 10, 1000, ['a']), ...steady(10, 100, 0, ['b'])];
    expect(evaluateCondition(full('More'), nodes, samples, NOW, TTL)).toMatchObject({ holds: true, metric: 100 });
    expect(evaluateCondition(full('Less'), nodes, samples, NOW, TTL).holds).toBe(false);
  });

  it('one node below its limit makes the group not full (and the value is ignored)', () => {
    const samples = [...steady(10, 10, 1000, ['a']), ...steady(10, 99.9, 999.9, ['b'])];
    expect(evaluateCondition(full('More'), nodes, samples, NOW, TTL)).toMatchObject({ holds: false, metric: 50 });
    expect(evaluateCondition(full('Less'), nodes, samples, NOW, TTL).holds).toBe(true);
  });

  it('a node without a fresh load is not at its limit', () => {
    const samples = steady(10, 100, 1000, ['a']);
    expect(evaluateCondition(full('More'), nodes, samples, NOW, TTL).holds).toBe(false);
  });

  it('a group without nodes is full', () => {
    expect(evaluateCondition(full('More', 300), [], [], NOW, TTL)).toMatchObject({ holds: true, metric: 100 });
  });

  it('must be full over the whole duration', () => {
    const samples = [...steady(60, 100, 1000), { nodeId: 'a', at: at(30), cpuPercent: 50, bandwidthMbps: 10 }];
    expect(evaluateCondition(full('More', 60), nodes, samples, NOW, TTL).holds).toBe(false);
    expect(evaluateCondition(full('More', 25), nodes, samples, NOW, TTL).holds).toBe(false);
    expect(evaluateCondition(full('More', 20), nodes, samples, NOW, TTL).holds).toBe(true);
  });
});
