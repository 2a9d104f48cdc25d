import type { AnalyticsGroup, ViewerAnalytics } from '@streamcloud/contract';
import type {
  AnalyticsRepository,
  AnalyticsScope,
  GroupFigures,
  MinuteFigures,
  SessionFigures,
} from './analytics.repository.js';

// A window's viewer figures: how they are read from the sessions and minutes (the analytics' answers and the
// quality rules' checks read them the same way), how figures of several sources add up, and the ratios both
// derive from them.

/** What a window's answer is made of. */
export interface WindowFigures {
  sessions: SessionFigures;
  minutes: MinuteFigures;
  groups: GroupFigures[];
}

/**
 * A window's figures from its sessions and minutes: exact. With `groupsPerDimension`, also its breakdowns (the
 * largest groups of each dimension); without, none are read (a quality rule's check needs none).
 */
export async function readWindowFigures(
  analytics: AnalyticsRepository,
  scope: AnalyticsScope,
  window: { from: Date; to: Date },
  groupsPerDimension?: number,
): Promise<WindowFigures> {
  const { from, to } = window;
  const [sessions, minutes, groups] = await Promise.all([
    analytics.sessionFigures(scope, from, to),
    analytics.minuteFigures(scope, from, to),
    groupsPerDimension === undefined ? [] : analytics.groupFigures(scope, from, to, groupsPerDimension),
  ]);
  return { sessions, minutes, groups };
}

/** `part` of `whole`, per `per` (1: a ratio, 100: a percentage); null when the whole is 0 (no sample). */
const share = (part: number, whole: number, per: number) => (whole > 0 ? (per * part) / whole : null);

/** The stalled time's share of the time viewers spent playing and stalled (the rebuffer ratio). */
export const rebufferShare = (time: { watchMs: number; rebufferMs: number }, per = 1) =>
  share(time.rebufferMs, time.watchMs + time.rebufferMs, per);

/** The share of viewer sessions that met an error (the error rate). */
export const errorShare = (sessions: { erroredViewers: number; viewers: number }, per = 1) =>
  share(sessions.erroredViewers, sessions.viewers, per);

/** The groups of several sources added up by dimension and value, the `perDimension` largest by viewers of each. */
export function largestGroups(groups: GroupFigures[], perDimension: number): GroupFigures[] {
  const byKey = new Map<string, GroupFigures>();
  for (const group of groups) {
    const key = `${group.dimension}\u0000${group.value}`;
    const sum = byKey.get(key);
    if (!sum) byKey.set(key, { ...group });
    else {
      sum.viewers += group.viewers;
      sum.watchMs += group.watchMs;
      sum.rebufferMs += group.rebufferMs;
    }
  }
  const sorted = [...byKey.values()].sort(
    (a, b) => b.viewers - a.viewers || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  const taken = new Map<string, number>();
  return sorted.filter((group) => {
    const count = taken.get(group.dimension) ?? 0;
    taken.set(group.dimension, count + 1);
    return count < perDimension;
  });
}

/** A window's figures as `GET /inputs/{id}/analytics` and `GET /analytics` answer them (a ratio without sample: 0). */
export function toViewerAnalytics(window: { from: Date; to: Date }, figures: WindowFigures): ViewerAnalytics {
  const breakdown = (dimension: GroupFigures['dimension']): AnalyticsGroup[] =>
    figures.groups
      .filter((group) => group.dimension === dimension)
      .map((group) => ({
        value: group.value,
        viewers: group.viewers,
        watchMs: group.watchMs,
        rebufferRatio: rebufferShare(group) ?? 0,
      }));
  const { sessions, minutes } = figures;
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    viewers: sessions.viewers,
    previews: sessions.previews,
    watchMs: minutes.watchMs,
    rebufferCount: minutes.rebufferCount,
    rebufferRatio: rebufferShare(minutes) ?? 0,
    errorRate: errorShare(sessions) ?? 0,
    startupMs: { median: sessions.startupMedian, p95: sessions.startupP95 },
    ttffMs: { median: sessions.ttffMedian, p95: sessions.ttffP95 },
    latencyMs: { median: sessions.latencyMedian, p95: sessions.latencyP95 },
    breakdowns: {
      country: breakdown('country'),
      browser: breakdown('browser'),
      device: breakdown('device'),
      rendition: breakdown('rendition'),
    },
  };
}
