import { csvRecord, type StreamUsage } from '@streamcloud/contract';
import { formatCsvDateTime, formatDuration, gigabytes } from '@/lib/format';

/** Records end with CRLF (RFC 4180). */
const EOL = '\r\n';

export const ACCOUNT_CSV_HEADERS = [
  'Stream ID',
  'Type',
  'Node',
  'Start date',
  'End date',
  'Duration',
  'Upload GB',
  'Download GB',
] as const;

/** RFC 4180 quoting, and formula-like cells neutralised (the contract's csvCell: one rule for every CSV). */
const record = csvRecord;

/**
 * The account report as CSV: the eight headers, then per stream its Incoming rows (one per session, with
 * start and end dates as DD/MM/YY HH:mm:ss in UTC), its Internode and Outgoing rows (one per node), traffic
 * in GB with 3 decimals; a blank row between streams.
 */
export function accountCsv(streams: readonly StreamUsage[]): string {
  const lines = [record([...ACCOUNT_CSV_HEADERS])];
  streams.forEach((stream, index) => {
    if (index > 0) lines.push('');
    for (const session of stream.incoming) {
      lines.push(
        record([
          stream.streamId,
          'Incoming',
          session.node,
          formatCsvDateTime(session.started),
          formatCsvDateTime(session.ended),
          formatDuration(session.duration),
          gigabytes(session.upload, 3),
          gigabytes(session.download, 3),
        ]),
      );
    }
    for (const [type, entries] of [
      ['Internode', stream.internode],
      ['Outgoing', stream.outgoing],
    ] as const) {
      for (const entry of entries) {
        lines.push(
          record([
            stream.streamId,
            type,
            entry.node,
            '',
            '',
            formatDuration(entry.duration),
            gigabytes(entry.upload, 3),
            gigabytes(entry.download, 3),
          ]),
        );
      }
    }
  });
  return lines.join(EOL) + EOL;
}

/** 'Report {username} {from}-{to}.csv', from and to as picked (yyyy-mm-dd). */
export function accountCsvFileName(username: string, from: string, to: string): string {
  return `Report ${username} ${from}-${to}.csv`;
}

const trafficOf = (entries: ReadonlyArray<{ upload: number; download: number }>) =>
  entries.reduce((sum, entry) => sum + entry.upload + entry.download, 0);

/**
 * The stream report as CSV: Duration (of its incoming sessions), Incoming (bytes up and down of its incoming
 * sessions) and Egress (internode plus outgoing bytes, up and down), traffic in GB (bytes / 1e9) with 2 decimals.
 */
export function streamCsv(streams: readonly StreamUsage[]): string {
  const duration = streams.reduce((sum, stream) => sum + stream.duration, 0);
  const incoming = streams.reduce((sum, stream) => sum + trafficOf(stream.incoming), 0);
  const egress = streams.reduce((sum, stream) => sum + trafficOf(stream.internode) + trafficOf(stream.outgoing), 0);
  return [
    record(['Duration', formatDuration(duration)]),
    record(['Incoming', gigabytes(incoming, 2)]),
    record(['Egress', gigabytes(egress, 2)]),
  ]
    .map((line) => line + EOL)
    .join('');
}

export const STREAM_CSV_FILE_NAME = 'Report.csv';
