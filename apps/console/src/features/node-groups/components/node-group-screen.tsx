import { messageOr } from '@streamcloud/api-client';
import { nodeGroupRoutes } from '@streamcloud/contract';
import gearIcon from 'bootstrap-icons/icons/gear.svg?raw';
import { useEffect, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { useIsAdmin } from '@/data/accounts/get-whoami';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useUpdateNodeGroup } from '@/data/node-groups/writes';
import { deletesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { NODE_GROUP_ERRORS } from '../utils/error-texts';
import { AssignmentBadge } from './assignment-badge';
import { NodeGroupModal } from './node-group-modal';
import { NodesCard } from './nodes-card';
import { ScalingCard } from './scaling-card';
import { ScalingEventsCard } from './scaling-events-card';

/** /node-groups/{id}: the group's settings, scaling rules, nodes and recent scaling events. */
export function NodeGroupScreen() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const isAdmin = useIsAdmin() ?? false;
  const group = useRouteQuery(nodeGroupRoutes.get, nodeGroupKeys.detail(id), { params: { id } });
  const update = useUpdateNodeGroup();
  const remove = useRouteMutation(nodeGroupRoutes.delete, {
    toRequest: (groupId: string) => ({ params: { id: groupId } }),
    ...deletesResource(nodeGroupKeys),
  });
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  /** The switch's value while its save is on the way (null: the saved one). */
  const [scalingShown, setScalingShown] = useState<boolean | null>(null);

  const loadError = group.error;
  useEffect(() => {
    if (loadError) notify(messageOr(loadError, NODE_GROUP_ERRORS.load));
  }, [loadError, notify]);

  if (group.isPending) {
    return (
      <PageShell title="Node group">
        <Loading />
      </PageShell>
    );
  }
  if (group.isError) {
    return (
      <PageShell title="Node group">
        <p className="text-danger">{messageOr(group.error, NODE_GROUP_ERRORS.load)}</p>
      </PageShell>
    );
  }
  const data = group.data;

  const toggleScaling = () => {
    const scalable = !data.scalable;
    // Shown switched at once, in the click's own render: the mutation's pending state reaches the screen a task
    // later, and until then React would put the controlled switch back (a quick look saw it unchanged).
    setScalingShown(scalable);
    update.mutate(
      { id: data.id, body: { scalable } },
      {
        onError: (error) => notify(messageOr(error, NODE_GROUP_ERRORS.update)),
        onSettled: () => setScalingShown(null),
      },
    );
  };

  const confirmDelete = () => {
    setConfirmingDelete(false);
    remove.mutate(data.id, {
      onSuccess: () => navigate('/node-groups'),
      onError: (error) => notify(messageOr(error, NODE_GROUP_ERRORS.delete)),
    });
  };

  return (
    <PageShell
      title={data.name}
      actions={
        isAdmin && (
          <Dropdown align="end">
            <Dropdown.Toggle variant="outline-secondary" id="node-group-settings">
              <Icon svg={gearIcon} className="me-1" />
              Settings
            </Dropdown.Toggle>
            <Dropdown.Menu>
              <Dropdown.Item as="button" onClick={() => setEditing(true)}>
                Edit
              </Dropdown.Item>
              <Dropdown.Item as="button" className="text-danger" onClick={() => setConfirmingDelete(true)}>
                Delete
              </Dropdown.Item>
            </Dropdown.Menu>
          </Dropdown>
        )
      }
    >
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3 mt-n2">
        <AssignmentBadge assignment={data.assignment} />
        {isAdmin && (
          <span className="text-secondary">
            Owner: <span className="fw-semibold">{data.owner?.username ?? 'Streaming Cloud'}</span>
          </span>
        )}
      </div>
      {data.description && <p className="text-break">{data.description}</p>}

      <Card className="mb-3" as="section">
        <Card.Header>
          <h2 id="settings-card-title" className="h6 mb-0">
            Settings
          </h2>
        </Card.Header>
        <Card.Body className="d-flex align-items-center gap-2">
          <Form.Check
            type="switch"
            id="node-group-scalable"
            label="Scaling"
            checked={scalingShown ?? data.scalable}
            disabled={!isAdmin || update.isPending}
            onChange={toggleScaling}
          />
          <span className="text-secondary" aria-hidden="true">
            {data.scalable ? 'On' : 'Off'}
          </span>
        </Card.Body>
      </Card>

      <ScalingCard group={data} isAdmin={isAdmin} />
      <NodesCard group={data} isAdmin={isAdmin} />
      <ScalingEventsCard groupId={data.id} />

      {isAdmin && <NodeGroupModal show={editing} group={data} onHide={() => setEditing(false)} />}
      <ConfirmDialog
        show={confirmingDelete}
        message={`Delete the node group "${data.name}"? Its nodes are kept.`}
        onConfirm={confirmDelete}
        onCancel={() => setConfirmingDelete(false)}
      />
    </PageShell>
  );
}
