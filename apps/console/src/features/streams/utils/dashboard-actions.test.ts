import type { StreamStatus } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { type DashboardActions, dashboardActions } from './dashboard-actions';

type Row = [status: StreamStatus, mode: 'AdjustableTranscode' | 'Passthrough', enabled: (keyof DashboardActions)[]];

const ALWAYS: (keyof DashboardActions)[] = ['billing', 'fallback', 'delete', 'metrics'];

// Section 4: Stop only in Ingestion or Pending (and Fallback: Stop ends a fallback playing); Transcoding not in Error, not for passthrough, not in
// Ingestion; Snapshots not in Error or Ingestion; Recordings, Relays, GSLB not in Error; Update only in
// Idle or Error; Delete whenever a stream is loaded; the recording button only in Ingestion.
const TABLE: Row[] = [
  ['Pending', 'AdjustableTranscode', ['stop', 'transcoding', 'snapshots', 'recordings', 'relays', 'gslb']],
  ['Pending', 'Passthrough', ['stop', 'snapshots', 'recordings', 'relays', 'gslb']],
  ['Idle', 'AdjustableTranscode', ['transcoding', 'snapshots', 'recordings', 'relays', 'gslb', 'update']],
  ['Idle', 'Passthrough', ['snapshots', 'recordings', 'relays', 'gslb', 'update']],
  ['Ingestion', 'AdjustableTranscode', ['stop', 'recordings', 'relays', 'gslb', 'record']],
  ['Ingestion', 'Passthrough', ['stop', 'recordings', 'relays', 'gslb', 'record']],
  ['Error', 'AdjustableTranscode', ['update']],
  ['Error', 'Passthrough', ['update']],
  ['Fallback', 'AdjustableTranscode', ['stop', 'transcoding', 'snapshots', 'recordings', 'relays', 'gslb']],
  ['Fallback', 'Passthrough', ['stop', 'snapshots', 'recordings', 'relays', 'gslb']],
];

describe('dashboard button rules', () => {
  it.each(TABLE)('%s, %s', (status, outputMode, enabled) => {
    const actions = dashboardActions({ status, outputMode });
    const on = Object.entries(actions)
      .filter(([, value]) => value)
      .map(([key]) => key)
      .sort();
    expect(on).toEqual([...ALWAYS, ...enabled].sort());
  });

  it('enables nothing before the stream is loaded', () => {
    expect(Object.values(dashboardActions(undefined)).some(Boolean)).toBe(false);
  });
});
