import { messageOr } from '@streamcloud/api-client';
import { type NodeGroup, nodeGroupRoutes } from '@streamcloud/contract';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { HeadedSection } from '@/components/ui/headed-section';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { PageShell } from '@/components/ui/page-shell';
import { useIsAdmin } from '@/data/accounts/get-whoami';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useRouteQuery } from '@/data/route-query';
import { groupByOwner, sortGroups } from '../utils/format';
import { AssignmentBadge } from './assignment-badge';
import { NodeGroupModal } from './node-group-modal';

function GroupList({ groups, label }: { groups: NodeGroup[]; label: string }) {
  if (groups.length === 0) return <p className="text-secondary">No node groups.</p>;
  return (
    <ListGroup as="ul" className="mb-3" aria-label={label}>
      {groups.map((group) => (
        <ListGroup.Item as="li" key={group.id} className="d-flex flex-wrap align-items-baseline gap-2">
          <Link to={`/node-groups/${group.id}`} className="fw-semibold">
            {group.name}
          </Link>
          <AssignmentBadge assignment={group.assignment} />
          {group.description && <span className="text-secondary text-break w-100">{group.description}</span>}
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}

function AdminList({ groups }: { groups: NodeGroup[] }) {
  const { cloud, customers } = groupByOwner(groups);
  return (
    <>
      <HeadedSection id="node-groups-cloud" level={2} title="Streaming Cloud" className="mb-4">
        <GroupList groups={cloud} label="Streaming Cloud" />
      </HeadedSection>
      <section aria-labelledby="node-groups-customers">
        <h2 id="node-groups-customers" className="h5">
          Customers
        </h2>
        {customers.length === 0 && <p className="text-secondary">No customer has node groups.</p>}
        {customers.map(({ owner, groups: owned }) => (
          <section key={owner.id} aria-labelledby={`node-groups-owner-${owner.id}`}>
            <h3 id={`node-groups-owner-${owner.id}`} className="h6">
              {owner.username}
            </h3>
            <GroupList groups={owned} label={owner.username} />
          </section>
        ))}
      </section>
    </>
  );
}

/** /node-groups: a USER's own groups in one list; an ADMIN's by owner, with creation. */
export function NodeGroupsScreen() {
  const isAdmin = useIsAdmin();
  const groups = useRouteQuery(nodeGroupRoutes.list, nodeGroupKeys.lists(), {});
  const [creating, setCreating] = useState(false);
  return (
    <PageShell
      title="Node groups"
      actions={
        isAdmin && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Icon svg={plusLgIcon} className="me-1" />
            Create node group
          </Button>
        )
      }
    >
      {groups.isPending || isAdmin === undefined ? (
        <Loading />
      ) : groups.isError ? (
        <p className="text-danger">{messageOr(groups.error, 'The node groups could not be loaded.')}</p>
      ) : isAdmin ? (
        <AdminList groups={groups.data} />
      ) : groups.data.length === 0 ? (
        <p>No node groups yet.</p>
      ) : (
        <GroupList groups={sortGroups(groups.data)} label="Node groups" />
      )}
      {isAdmin && <NodeGroupModal show={creating} onHide={() => setCreating(false)} />}
    </PageShell>
  );
}
