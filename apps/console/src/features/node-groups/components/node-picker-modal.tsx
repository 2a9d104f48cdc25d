import { messageOr } from '@streamcloud/api-client';
import { type NodeGroup, nodeGroupRoutes } from '@streamcloud/contract';
import { useEffect, useMemo, useState } from 'react';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import { ListQuery } from '@/components/ui/list-query';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useSavePersistentNodes } from '@/data/node-groups/group-nodes';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useRouteQuery } from '@/data/route-query';
import { NODE_GROUP_ERRORS } from '../utils/error-texts';

export interface NodePickerModalProps {
  show: boolean;
  group: NodeGroup;
  onHide: () => void;
}

/** Chooses the group's persistent nodes: newly chosen ones are attached, removed ones detached. */
export function NodePickerModal({ show, group, onHide }: NodePickerModalProps) {
  const notify = useNotify();
  // Every node with the groups it is in (ADMIN), read while the picker is open.
  const candidates = useRouteQuery(
    nodeGroupRoutes.persistentNodes,
    nodeGroupKeys.persistentNodes(),
    {},
    { enabled: show },
  );
  const save = useSavePersistentNodes(group.id);
  const current = useMemo(
    () => new Set(group.resources.filter((r) => r.type === 'Persistent').map((r) => r.node.id)),
    [group.resources],
  );
  const [chosen, setChosen] = useState<Set<string>>(current);

  useEffect(() => {
    if (show) setChosen(new Set(current));
  }, [show, current]);

  const toggle = (nodeId: string) =>
    setChosen((set) => {
      const next = new Set(set);
      if (next.has(nodeId)) next.delete(nodeId);
      else next.add(nodeId);
      return next;
    });

  const submit = async () => {
    const attach = [...chosen].filter((id) => !current.has(id));
    const detach = [...current].filter((id) => !chosen.has(id));
    try {
      if (attach.length > 0 || detach.length > 0) await save.mutateAsync({ attach, detach });
      onHide();
    } catch (error) {
      notify(messageOr(error, NODE_GROUP_ERRORS.update));
    }
  };

  const titleId = 'node-picker-title';
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby={titleId} scrollable>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>Persistent nodes</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <ListQuery query={candidates} failed="The nodes could not be loaded." empty={<p>No nodes yet.</p>}>
          {(items) => (
            <ListGroup variant="flush">
              {items.map(({ node, groups }) => {
                const others = groups.filter((g) => g.id !== group.id);
                const allocatedHere = groups.some((g) => g.id === group.id && g.type === 'Allocated');
                return (
                  <ListGroup.Item key={node.id}>
                    <Form.Check
                      type="checkbox"
                      id={`picker-node-${node.id}`}
                      checked={chosen.has(node.id)}
                      onChange={() => toggle(node.id)}
                      label={
                        <>
                          <span className="fw-semibold">{node.name}</span>{' '}
                          <span className="text-secondary">{node.connection.hostname}</span>
                          {node.location.description && (
                            <span className="text-secondary"> · {node.location.description}</span>
                          )}
                        </>
                      }
                    />
                    {(others.length > 0 || allocatedHere) && (
                      <div className="small text-secondary ms-4">
                        {allocatedHere && 'Allocated in this group. '}
                        {others.length > 0 && `Also in: ${others.map((g) => g.name).join(', ')}`}
                      </div>
                    )}
                  </ListGroup.Item>
                );
              })}
            </ListGroup>
          )}
        </ListQuery>
      </Modal.Body>
      <ModalActions
        onCancel={onHide}
        submitLabel="Save"
        submitDisabled={save.isPending || !candidates.data}
        onSubmit={submit}
      />
    </Modal>
  );
}
