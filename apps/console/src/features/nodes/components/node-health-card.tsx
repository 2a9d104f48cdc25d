import type { Node, NodeHealth } from '@streamcloud/contract';
import Table from 'react-bootstrap/Table';
import { TitledCard } from '@/components/ui/titled-card';
import { formatBytes, formatDateTime } from '@/lib/format';

export const HEALTH_TEXTS = {
  noReport: 'No report yet.',
  notReported: 'This node does not report its health (an older node version).',
  noProblems: 'No problems.',
} as const;

function HealthFigures({ health }: { health: NodeHealth }) {
  const { files, bytes } = health.uploadBacklog;
  return (
    <Table size="sm" className="mb-0">
      <caption className="visually-hidden">Health figures</caption>
      <tbody>
        {health.disks.map((disk) => (
          <tr key={disk.path}>
            <th scope="row">Disk {disk.path}</th>
            <td>
              {formatBytes(disk.freeBytes)} free of {formatBytes(disk.totalBytes)}
            </td>
          </tr>
        ))}
        <tr>
          <th scope="row">Encoders' CPU</th>
          <td>{health.encoderCpuPercent.toFixed(0)} %</td>
        </tr>
        <tr>
          <th scope="row">Recordings waiting to upload</th>
          <td>{files === 0 ? 'None' : `${files} (${formatBytes(bytes)})`}</td>
        </tr>
      </tbody>
    </Table>
  );
}

/** What the node reports of itself (issue 38): its problems first, then the figures they come from. */
export function NodeHealthCard({ node }: { node: Node }) {
  const { load } = node;
  const health = load?.health ?? null;
  return (
    <TitledCard title="Health">
      {!load ? (
        <p className="mb-0">{HEALTH_TEXTS.noReport}</p>
      ) : !health ? (
        <p className="mb-0">{HEALTH_TEXTS.notReported}</p>
      ) : (
        <>
          <p className="small text-secondary">As reported {formatDateTime(load.reportedAt)}.</p>
          {health.problems.length === 0 ? (
            <p>{HEALTH_TEXTS.noProblems}</p>
          ) : (
            <ul aria-label="Problems" className="text-danger">
              {health.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          <HealthFigures health={health} />
        </>
      )}
    </TitledCard>
  );
}
