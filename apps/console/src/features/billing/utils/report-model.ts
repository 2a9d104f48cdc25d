import type { ProcessingType, ReportMode, StatisticProtocol, StreamUsage } from '@streamcloud/contract';

export interface Traffic {
  duration: number;
  upload: number;
  download: number;
}

export interface UsageTotals {
  streams: number;
  /** Seconds of incoming sessions. */
  duration: number;
  incoming: Traffic;
  internode: Traffic;
  outgoing: Traffic;
}

const zero = (): Traffic => ({ duration: 0, upload: 0, download: 0 });
const add = (sum: Traffic, entry: Traffic) => {
  sum.duration += entry.duration;
  sum.upload += entry.upload;
  sum.download += entry.download;
  return sum;
};

export const sumTraffic = (entries: readonly Traffic[]): Traffic => entries.reduce(add, zero());

export function totalsOf(streams: readonly StreamUsage[]): UsageTotals {
  return {
    streams: streams.length,
    duration: streams.reduce((sum, stream) => sum + stream.duration, 0),
    incoming: sumTraffic(streams.flatMap((stream) => stream.incoming)),
    internode: sumTraffic(streams.flatMap((stream) => stream.internode)),
    outgoing: sumTraffic(streams.flatMap((stream) => stream.outgoing)),
  };
}

/** Bytes both ways. */
export const bytesOf = (traffic: Traffic) => traffic.upload + traffic.download;

export type UsageRowType = 'Incoming' | 'Internode' | 'Outgoing';

export interface UsageDetailRow extends Traffic {
  key: string;
  type: UsageRowType;
  node: string;
  start: string | null;
  end: string | null;
}

/** One row per incoming session and per node of internode and outgoing traffic (the CSV's rows). */
export function detailRowsOf(stream: StreamUsage): UsageDetailRow[] {
  return [
    ...stream.incoming.map((session) => ({
      key: `in-${session.nodeId}-${session.sessionId}`,
      type: 'Incoming' as const,
      node: session.node,
      start: session.started,
      end: session.ended,
      duration: session.duration,
      upload: session.upload,
      download: session.download,
    })),
    ...(['internode', 'outgoing'] as const).flatMap((kind) =>
      stream[kind].map((entry) => ({
        key: `${kind}-${entry.nodeId}`,
        type: (kind === 'internode' ? 'Internode' : 'Outgoing') as UsageRowType,
        node: entry.node,
        start: null,
        end: null,
        duration: entry.duration,
        upload: entry.upload,
        download: entry.download,
      })),
    ),
  ];
}

export const REPORT_MODES: ReadonlyArray<{ value: ReportMode; label: string }> = [
  { value: 'Total', label: 'Totals' },
  { value: 'Detailed', label: 'Detailed' },
  { value: 'VeryDetailed', label: 'Very detailed' },
];

/** Protocol dropdown choices and the statistic protocol each one asks for. */
export const PROTOCOL_CHOICES = ['WebRTC', 'RTMP', 'All'] as const;
export type ProtocolChoice = (typeof PROTOCOL_CHOICES)[number];
export const protocolOf = (choice: ProtocolChoice): StatisticProtocol | undefined =>
  choice === 'All' ? undefined : `Input${choice}`;

export const PROCESSING_CHOICES = ['Transcode', 'Passthrough', 'All'] as const;
export type ProcessingChoice = (typeof PROCESSING_CHOICES)[number];
export const processingOf = (choice: ProcessingChoice): ProcessingType | undefined =>
  choice === 'All' ? undefined : choice;

/** 'InputRTMP' reads 'RTMP'. */
export const protocolLabel = (protocol: string) => protocol.replace(/^Input/, '');
