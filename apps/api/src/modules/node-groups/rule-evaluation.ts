import type { ScalingComparison, ScalingConditionType } from '@streamcloud/contract';

/**
 * How a scaling rule's condition is decided (pure: no clock, no database).
 *
 * The group's load is a step function of time built from its nodes' load samples: at an instant t,
 * a node's load is its latest sample taken at or before t, if that sample is younger than
 * `sampleMaxAgeMs` (a node that stopped reporting stops counting). The metrics at t:
 * - CPUGroupAvg: the mean cpu_percent of the nodes that have a load at t;
 * - BWGroupAvg: Σ bandwidth_mbps / Σ bandwidth_limit_mbps × 100 over those nodes (their average
 *   bandwidth against their average limit); 100 when their limits add up to 0 (no capacity);
 * - GroupFull: the percentage of the group's nodes at their limit, a node being at its limit when its
 *   load at t has bandwidth_mbps ≥ bandwidth_limit_mbps or cpu_percent ≥ 100. A node without a load
 *   at t is not at its limit; a group without nodes is full (100: it has no capacity at all).
 *
 * A condition holds at t when: More: metric > value; Less: metric < value. For GroupFull the value is
 * ignored (its settings type is None): More holds when the group is full (metric = 100), Less when it
 * is not. The condition holds over the rule's window [now − duration, now] when it holds at every
 * instant of it; since the metric only changes when a sample arrives or expires, checking the window's
 * start and each of those instants inside it is exact. An average without any node load at some
 * instant of the window (not enough history, nodes silent) does not hold.
 */
export interface ConditionSpec {
  type: ScalingConditionType;
  comparison: ScalingComparison;
  value: number;
  /** Seconds. */
  duration: number;
}

export interface EvaluatedNode {
  id: string;
  bandwidthLimitMbps: number;
}

export interface EvaluatedSample {
  nodeId: string;
  at: Date;
  cpuPercent: number;
  bandwidthMbps: number;
}

export interface Evaluation {
  holds: boolean;
  /** The metric at `now` (percent), or null when no node had a load then. */
  metric: number | null;
  /** Why it does not hold, or what held. */
  reason: string;
}

export const FULL = 100;

const percent = (value: number) => `${Math.round(value * 10) / 10}%`;

export function describeMetric(type: ScalingConditionType, metric: number | null): string {
  if (metric === null) return 'no load reported';
  if (type === 'CPUGroupAvg') return `CPU average ${percent(metric)}`;
  if (type === 'BWGroupAvg') return `bandwidth average ${percent(metric)} of the limit`;
  return metric >= FULL ? 'group full' : `group not full (${percent(metric)} of the nodes at their limit)`;
}

export function compare(spec: Pick<ConditionSpec, 'type' | 'comparison' | 'value'>, metric: number): boolean {
  if (spec.type === 'GroupFull') return spec.comparison === 'More' ? metric >= FULL : metric < FULL;
  return spec.comparison === 'More' ? metric > spec.value : metric < spec.value;
}

export function evaluateCondition(
  spec: ConditionSpec,
  nodes: EvaluatedNode[],
  samples: EvaluatedSample[],
  now: Date,
  sampleMaxAgeMs: number,
): Evaluation {
  const nowMs = now.getTime();
  const startMs = nowMs - spec.duration * 1000;
  const byNode = new Map<string, EvaluatedSample[]>(nodes.map((node) => [node.id, []]));
  const points = new Set<number>([startMs, nowMs]);
  for (const sample of samples) {
    const atMs = sample.at.getTime();
    const list = byNode.get(sample.nodeId);
    if (!list || atMs > nowMs) continue;
    list.push(sample);
    if (atMs > startMs) points.add(atMs);
    const expiresMs = atMs + sampleMaxAgeMs;
    if (expiresMs > startMs && expiresMs <= nowMs) points.add(expiresMs);
  }
  for (const list of byNode.values()) list.sort((a, b) => a.at.getTime() - b.at.getTime());

  const loadAt = (nodeId: string, atMs: number): EvaluatedSample | null => {
    const list = byNode.get(nodeId) ?? [];
    let latest: EvaluatedSample | null = null;
    for (const sample of list) {
      if (sample.at.getTime() > atMs) break;
      latest = sample;
    }
    return latest && atMs - latest.at.getTime() < sampleMaxAgeMs ? latest : null;
  };

  const metricAt = (atMs: number): number | null => {
    if (spec.type === 'GroupFull') {
      if (nodes.length === 0) return FULL;
      const full = nodes.filter((node) => {
        const load = loadAt(node.id, atMs);
        return load !== null && (load.bandwidthMbps >= node.bandwidthLimitMbps || load.cpuPercent >= 100);
      }).length;
      return (full / nodes.length) * 100;
    }
    const loads = nodes.flatMap((node) => {
      const load = loadAt(node.id, atMs);
      return load ? [{ node, load }] : [];
    });
    if (loads.length === 0) return null;
    if (spec.type === 'CPUGroupAvg') return loads.reduce((sum, { load }) => sum + load.cpuPercent, 0) / loads.length;
    const limit = loads.reduce((sum, { node }) => sum + node.bandwidthLimitMbps, 0);
    if (limit <= 0) return FULL;
    return (loads.reduce((sum, { load }) => sum + load.bandwidthMbps, 0) / limit) * 100;
  };

  const current = metricAt(nowMs);
  for (const point of [...points].sort((a, b) => a - b)) {
    const metric = metricAt(point);
    if (metric === null) {
      return { holds: false, metric: current, reason: `no load reported at ${new Date(point).toISOString()}` };
    }
    if (!compare(spec, metric)) {
      return {
        holds: false,
        metric: current,
        reason: `${describeMetric(spec.type, metric)} at ${new Date(point).toISOString()}`,
      };
    }
  }
  return { holds: true, metric: current, reason: describeCondition(spec, current) };
}

/** "CPU average 85% > 80% for 60 s", as decision events say it. */
export function describeCondition(spec: ConditionSpec, metric: number | null): string {
  const window = `for ${spec.duration} s`;
  if (spec.type === 'GroupFull') return `${describeMetric(spec.type, metric)} ${window}`;
  const sign = spec.comparison === 'More' ? '>' : '<';
  return `${describeMetric(spec.type, metric)} ${sign} ${spec.value}% ${window}`;
}
