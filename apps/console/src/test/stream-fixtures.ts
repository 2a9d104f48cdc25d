import type {
  QualityRule,
  StreamInput,
  StreamInputSummary,
  StreamOutput,
  ViewerAnalytics,
} from '@streamcloud/contract';
import { streamInput as stream } from './fixtures';

let sequence = 0;
const AT = '2025-01-01T00:00:00.000Z';

export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** A new Idle stream without caption, a new id and name each call, as GET /inputs/{id} answers it. */
export function streamInput(extra: Partial<StreamInput> = {}): StreamInput {
  sequence += 1;
  const name = `in+${uuid(5000 + sequence)}`;
  return stream(extra.id ?? uuid(1000 + sequence), {
    ownerId: uuid(2),
    caption: null,
    status: 'Idle',
    name,
    connection: { uri: `rtmp://edge.example:1935/live/${name}` },
    nodeId: uuid(9),
    servingNode: { id: uuid(9), name: 'edge-1', groups: [] },
    createdAt: AT,
    updatedAt: AT,
    ...extra,
  });
}

export function summaryOf(stream: StreamInput): StreamInputSummary {
  const { id, ownerId, caption, format, status, access, outputMode, name, nodeId, createdAt } = stream;
  return { id, ownerId, caption, format, status, access, outputMode, name, nodeId, createdAt };
}

export function streamOutput(streamId: string, n: number, extra: Partial<StreamOutput> = {}): StreamOutput {
  const format = extra.format ?? 'RTMP';
  return {
    id: uuid(7000 + n),
    streamId,
    format,
    name: `out+${uuid(8000 + n)}`,
    access: 'Public',
    hlsLatency: format === 'HLS' ? 'Standard' : null,
    dvrWindowMinutes: 0,
    connection: { uri: `rtmp://edge.example:1935/live/out+${uuid(8000 + n)}` },
    viewer: { ipAddress: null, geoLocation: null, accessToken: null, accessTokenRotatedAt: null },
    callbackUri: null,
    sessions: [],
    previews: 0,
    node: { id: uuid(9), name: 'edge-1' },
    createdAt: AT,
    ...extra,
  };
}

/** A preview credential as POST /inputs/{id}/preview answers it. */
export const PREVIEW_CREDENTIAL = { token: 'pv1.1900000000.signature', expiresAt: '2030-01-01T00:00:00.000Z' };

/** A stream's WebRTC (WHEP) and HLS outputs on node.example, the two the Preview card plays. */
export function previewOutputs(streamId: string): { whep: StreamOutput; hls: StreamOutput } {
  return {
    whep: streamOutput(streamId, 1, {
      format: 'WebRTC',
      connection: { signallingUri: 'http://node.example:4242/whep/out%2Bw' },
    }),
    hls: streamOutput(streamId, 2, {
      format: 'HLS',
      connection: { uri: 'http://node.example:4242/hls/out%2Bh/index.m3u8' },
    }),
  };
}

/** A window without a beacon: what the stream dashboard's viewer experience card reads of a new stream. */
export function emptyAnalytics(): ViewerAnalytics {
  return {
    from: '2026-11-28T12:00:00.000Z',
    to: '2026-11-29T12:00:00.000Z',
    viewers: 0,
    previews: 0,
    watchMs: 0,
    rebufferCount: 0,
    rebufferRatio: 0,
    errorRate: 0,
    startupMs: { median: null, p95: null },
    ttffMs: { median: null, p95: null },
    latencyMs: { median: null, p95: null },
    breakdowns: { country: [], browser: [], device: [], rendition: [] },
  };
}

/** A stream's quality rule as the API answers it: the default (off) unless told otherwise. */
export const qualityRule = (streamId: string, overrides: Partial<QualityRule> = {}): QualityRule => ({
  streamId,
  enabled: false,
  metric: 'rebufferPercent',
  threshold: 2,
  windowMinutes: 5,
  minViewers: 5,
  state: 'OK',
  since: null,
  checkedAt: null,
  value: null,
  viewers: 0,
  ...overrides,
});
