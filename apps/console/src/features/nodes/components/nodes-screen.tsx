import { type Node, nodeRoutes } from '@streamcloud/contract';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { AddLink } from '@/components/ui/add-link';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { HeadedSection } from '@/components/ui/headed-section';
import { ListQuery } from '@/components/ui/list-query';
import { NodeStatusBadges } from '@/components/ui/node-status-badges';
import { PageShell } from '@/components/ui/page-shell';
import { nodeKeys } from '@/data/nodes/keys';
import { NODES_POLL_MS } from '@/data/nodes/list-poll';
import { useRouteQuery } from '@/data/route-query';
import { BITS_PER_MEGABIT, formatBitrate } from '@/lib/format';
import { groupNodesByRegion, type RegionGroup } from '../utils/region-groups';

function loadText(node: Node): string {
  if (!node.load) return '—';
  const { cpuPercent, bandwidthMbps, sessions } = node.load;
  return `CPU ${cpuPercent.toFixed(0)} % · ${formatBitrate(bandwidthMbps * BITS_PER_MEGABIT)} · ${sessions} sessions`;
}

function RegionSection({ group }: { group: RegionGroup }) {
  const headingId = `region-${group.code ?? 'none'}`;
  return (
    <HeadedSection id={headingId} level={2} title={group.title} className="mb-4">
      <Table responsive hover className="align-middle">
        <ColumnHeaders columns={['Name', 'Address', 'Location', 'Status', 'Load']} />
        <tbody>
          {group.nodes.map((node) => (
            <tr key={node.id}>
              <td>
                <Link to={`/nodes/view/${node.id}`}>{node.name}</Link>
              </td>
              <td className="text-break">
                {node.connection.protocol.toLowerCase()}://{node.connection.hostname}:{node.connection.port}
              </td>
              <td>{node.location.description}</td>
              <td>
                <NodeStatusBadges node={node} />
              </td>
              <td className="small text-secondary">{loadText(node)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </HeadedSection>
  );
}

/** /nodes: every node, grouped by world region, read again every NODES_POLL_MS while shown. */
export function NodesScreen() {
  const nodes = useRouteQuery(nodeRoutes.list, nodeKeys.lists(), {}, { refetchInterval: NODES_POLL_MS });
  return (
    <PageShell title="Nodes" actions={<AddLink to="/nodes/create">Add node</AddLink>}>
      <ListQuery query={nodes} failed="The nodes could not be loaded." empty={<p>No nodes yet.</p>}>
        {(items) => groupNodesByRegion(items).map((group) => <RegionSection key={group.code ?? ''} group={group} />)}
      </ListQuery>
    </PageShell>
  );
}
