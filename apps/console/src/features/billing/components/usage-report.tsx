import type { ReportMode, StreamUsage } from '@streamcloud/contract';
import Table from 'react-bootstrap/Table';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { formatDateTime, formatDuration, gigabytes } from '@/lib/format';
import { bytesOf, detailRowsOf, protocolLabel, sumTraffic, type Traffic, totalsOf } from '../utils/report-model';

const gb = (bytes: number) => gigabytes(bytes, 1);
const streamTitle = (stream: StreamUsage) => stream.caption ?? stream.streamId;

function TotalsTable({
  streams,
  concurrentSessions,
}: {
  streams: readonly StreamUsage[];
  concurrentSessions?: number;
}) {
  const totals = totalsOf(streams);
  const rows: Array<[string, Traffic]> = [
    ['Incoming', totals.incoming],
    ['Internode', totals.internode],
    ['Outgoing', totals.outgoing],
  ];
  const all = sumTraffic(rows.map(([, traffic]) => traffic));
  return (
    <>
      <dl className="row mb-2">
        <dt className="col-sm-4">Streams</dt>
        <dd className="col-sm-8">{totals.streams}</dd>
        <dt className="col-sm-4">Streaming duration</dt>
        <dd className="col-sm-8">{formatDuration(totals.duration)}</dd>
        {concurrentSessions === undefined ? null : (
          <>
            <dt className="col-sm-4">Peak concurrent sessions</dt>
            <dd className="col-sm-8">{concurrentSessions}</dd>
          </>
        )}
      </dl>
      <Table size="sm" bordered className="align-middle" aria-label="Usage totals">
        <ColumnHeaders columns={['Traffic', 'Duration', 'Upload (GB)', 'Download (GB)', 'Total (GB)']} />
        <tbody>
          {rows.map(([label, traffic]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{formatDuration(traffic.duration)}</td>
              <td>{gb(traffic.upload)}</td>
              <td>{gb(traffic.download)}</td>
              <td>{gb(bytesOf(traffic))}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td />
            <td>{gb(all.upload)}</td>
            <td>{gb(all.download)}</td>
            <td>{gb(bytesOf(all))}</td>
          </tr>
        </tfoot>
      </Table>
    </>
  );
}

function UsageDetails({ streams }: { streams: readonly StreamUsage[] }) {
  return (
    <Table size="sm" bordered responsive className="align-middle" aria-label="Usage per stream">
      <ColumnHeaders
        columns={['Stream', 'Protocol', 'Processing', 'Duration', 'Incoming (GB)', 'Internode (GB)', 'Outgoing (GB)']}
      />
      <tbody>
        {streams.map((stream) => (
          <tr key={stream.streamId}>
            <th scope="row" className="fw-normal text-break">
              {streamTitle(stream)}
              {stream.caption ? <div className="small text-secondary">{stream.streamId}</div> : null}
            </th>
            <td>{protocolLabel(stream.protocol)}</td>
            <td>{stream.processing}</td>
            <td>{formatDuration(stream.duration)}</td>
            <td>{gb(bytesOf(sumTraffic(stream.incoming)))}</td>
            <td>{gb(bytesOf(sumTraffic(stream.internode)))}</td>
            <td>{gb(bytesOf(sumTraffic(stream.outgoing)))}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function StreamDetails({ stream }: { stream: StreamUsage }) {
  return (
    <Table size="sm" bordered responsive className="align-middle" aria-label={`Usage of ${streamTitle(stream)}`}>
      <ColumnHeaders columns={['Type', 'Node', 'Start date', 'End date', 'Duration', 'Upload (GB)', 'Download (GB)']} />
      <tbody>
        {detailRowsOf(stream).map((row) => (
          <tr key={row.key}>
            <th scope="row" className="fw-normal">
              {row.type}
            </th>
            <td className="text-break">{row.node}</td>
            <td>{row.start ? formatDateTime(row.start) : ''}</td>
            <td>{row.end ? formatDateTime(row.end) : ''}</td>
            <td>{formatDuration(row.duration)}</td>
            <td>{gb(row.upload)}</td>
            <td>{gb(row.download)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Totals always; Detailed adds usage per stream; Very detailed adds every stream's sessions and nodes. */
export function UsageReport({
  streams,
  mode,
  concurrentSessions,
}: {
  streams: readonly StreamUsage[];
  mode: ReportMode;
  concurrentSessions?: number;
}) {
  return (
    <div className="usage-report">
      <h2 className="h5">Totals</h2>
      <TotalsTable streams={streams} {...(concurrentSessions === undefined ? {} : { concurrentSessions })} />
      {mode === 'Total' ? null : (
        <>
          <h2 className="h5 mt-4">Usage details</h2>
          {streams.length === 0 ? (
            <p className="text-secondary">No usage in this period.</p>
          ) : (
            <UsageDetails streams={streams} />
          )}
        </>
      )}
      {mode === 'VeryDetailed'
        ? streams.map((stream) => (
            <section key={stream.streamId} className="mt-3">
              <h3 className="h6 text-break">{streamTitle(stream)}</h3>
              <StreamDetails stream={stream} />
            </section>
          ))
        : null}
    </div>
  );
}
