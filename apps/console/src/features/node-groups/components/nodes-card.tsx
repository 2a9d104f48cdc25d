import { messageOr } from '@streamcloud/api-client';
import type { NodeGroup, NodeGroupResource } from '@streamcloud/contract';
import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Dropdown from 'react-bootstrap/Dropdown';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { HeadedSection } from '@/components/ui/headed-section';
import { HeaderCard } from '@/components/ui/header-card';
import { NodeStatusBadges } from '@/components/ui/node-status-badges';
import { useNotify } from '@/components/ui/notifications';
import { useAllocateNode } from '@/data/node-groups/group-nodes';
import { NODE_GROUP_ERRORS } from '../utils/error-texts';
import { NodePickerModal } from './node-picker-modal';

function ResourceTable({
  title,
  resources,
  isAdmin,
}: {
  title: string;
  resources: NodeGroupResource[];
  isAdmin: boolean;
}) {
  const id = `nodes-${title.toLowerCase()}`;
  return (
    <HeadedSection id={id} title={title} className="mb-3">
      {resources.length === 0 ? (
        <p className="text-secondary">No {title.toLowerCase()} nodes.</p>
      ) : (
        <Table responsive size="sm" className="align-middle mb-0" aria-labelledby={id}>
          <ColumnHeaders columns={['Name', 'Hostname', 'Location', 'Status']} />
          <tbody>
            {resources.map(({ id: resourceId, node }) => (
              <tr key={resourceId}>
                <td>{isAdmin ? <Link to={`/nodes/view/${node.id}`}>{node.name}</Link> : node.name}</td>
                <td className="text-break">{node.connection.hostname}</td>
                <td>{node.location.description}</td>
                <td>
                  <NodeStatusBadges node={node} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </HeadedSection>
  );
}

/** The Nodes card: Persistent then Allocated nodes; admins pick persistent nodes and allocate one. */
export function NodesCard({ group, isAdmin }: { group: NodeGroup; isAdmin: boolean }) {
  const notify = useNotify();
  const allocate = useAllocateNode(group.id);
  const [picking, setPicking] = useState(false);
  const persistent = group.resources.filter((r) => r.type === 'Persistent');
  const allocated = group.resources.filter((r) => r.type === 'Allocated');

  const allocateOne = () =>
    allocate.mutate(undefined, {
      onSuccess: (result) =>
        notify(
          `Node allocated: ${result.resources.map((r) => r.node.name).join(', ') || result.event.message}`,
          'success',
        ),
      onError: (error) => notify(messageOr(error, NODE_GROUP_ERRORS.update)),
    });

  return (
    <HeaderCard
      titleId="nodes-card-title"
      title="Nodes"
      actions={
        isAdmin && (
          <Dropdown align="end">
            <Dropdown.Toggle size="sm" variant="outline-secondary" id="nodes-actions" disabled={allocate.isPending}>
              Actions
            </Dropdown.Toggle>
            <Dropdown.Menu>
              <Dropdown.Item as="button" onClick={() => setPicking(true)}>
                Persistent nodes
              </Dropdown.Item>
              <Dropdown.Item as="button" onClick={allocateOne}>
                Allocate node
              </Dropdown.Item>
            </Dropdown.Menu>
          </Dropdown>
        )
      }
    >
      <Card.Body>
        <ResourceTable title="Persistent" resources={persistent} isAdmin={isAdmin} />
        <ResourceTable title="Allocated" resources={allocated} isAdmin={isAdmin} />
      </Card.Body>
      {isAdmin && <NodePickerModal show={picking} group={group} onHide={() => setPicking(false)} />}
    </HeaderCard>
  );
}
