import { messageOr } from '@streamcloud/api-client';
import { type NodeGroup, nodeGroupRoutes, type ScalingRule } from '@streamcloud/contract';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { HeaderCard } from '@/components/ui/header-card';
import { Icon } from '@/components/ui/icon';
import { useNotify } from '@/components/ui/notifications';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useUpdateScalingRule } from '@/data/node-groups/writes';
import { useRouteMutation } from '@/data/route-mutation';
import { NODE_GROUP_ERRORS } from '../utils/error-texts';
import { describeRule, describeRuleDetails, ruleToDraft } from '../utils/format';
import { ScalingRuleModal } from './scaling-rule-modal';

function RuleRow({
  groupId,
  rule,
  index,
  isAdmin,
  onEdit,
  onRemove,
}: {
  groupId: string;
  rule: ScalingRule;
  index: number;
  isAdmin: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const notify = useNotify();
  const update = useUpdateScalingRule(groupId);
  const textId = `rule-${rule.id}-text`;
  // Shown at once and kept until the group is reloaded, so the switch never flips back meanwhile.
  const [pendingEnabled, setPendingEnabled] = useState<boolean | null>(null);
  const toggle = () => {
    const enabled = !rule.enabled;
    setPendingEnabled(enabled);
    update.mutate(
      { ruleId: rule.id, body: { ...ruleToDraft(rule), enabled } },
      {
        onError: (error) => notify(messageOr(error, NODE_GROUP_ERRORS.toggleRule)),
        onSettled: () => setPendingEnabled(null),
      },
    );
  };
  return (
    <ListGroup.Item as="li" aria-label={`Rule ${index + 1}`} className="d-flex flex-wrap align-items-center gap-3">
      <div className="flex-grow-1">
        <div id={textId}>{describeRule(rule)}</div>
        <div className="small text-secondary">{describeRuleDetails(rule)}</div>
      </div>
      <Form.Check
        type="switch"
        id={`rule-${rule.id}-enabled`}
        label="Enabled"
        checked={pendingEnabled ?? rule.enabled}
        disabled={!isAdmin || update.isPending}
        onChange={toggle}
        aria-describedby={textId}
      />
      {isAdmin && (
        <div className="d-flex gap-2">
          <Button size="sm" variant="outline-secondary" onClick={onEdit} aria-describedby={textId}>
            Edit
          </Button>
          <Button size="sm" variant="outline-danger" onClick={onRemove} aria-describedby={textId}>
            Remove
          </Button>
        </div>
      )}
    </ListGroup.Item>
  );
}

/** The Scaling card: the group's rules; admins add, edit and remove them; each has an enabled toggle. */
export function ScalingCard({ group, isAdmin }: { group: NodeGroup; isAdmin: boolean }) {
  const notify = useNotify();
  const remove = useRouteMutation(nodeGroupRoutes.deleteRule, {
    toRequest: (ruleId: string) => ({ params: { id: group.id, ruleId } }),
    invalidates: () => [nodeGroupKeys.detail(group.id)],
  });
  const [editing, setEditing] = useState<{ rule?: ScalingRule } | null>(null);
  const [removing, setRemoving] = useState<ScalingRule | null>(null);

  const confirmRemove = () => {
    const rule = removing;
    setRemoving(null);
    if (!rule) return;
    remove.mutate(rule.id, { onError: (error) => notify(messageOr(error, NODE_GROUP_ERRORS.deleteRule)) });
  };

  return (
    <HeaderCard
      titleId="scaling-card-title"
      title="Scaling"
      actions={
        isAdmin && (
          <Button size="sm" variant="primary" onClick={() => setEditing({})}>
            <Icon svg={plusLgIcon} className="me-1" />
            Add rule
          </Button>
        )
      }
    >
      {group.scalingRules.length === 0 ? (
        <Card.Body>
          <p className="mb-0 text-secondary">No scaling rules.</p>
        </Card.Body>
      ) : (
        <ListGroup as="ol" variant="flush" aria-label="Scaling rules">
          {group.scalingRules.map((rule, index) => (
            <RuleRow
              key={rule.id}
              groupId={group.id}
              rule={rule}
              index={index}
              isAdmin={isAdmin}
              onEdit={() => setEditing({ rule })}
              onRemove={() => setRemoving(rule)}
            />
          ))}
        </ListGroup>
      )}
      {isAdmin && (
        <ScalingRuleModal
          show={editing !== null}
          groupId={group.id}
          {...(editing?.rule ? { rule: editing.rule } : {})}
          onHide={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        show={removing !== null}
        message={removing ? `Remove the scaling rule "${describeRule(removing)}"?` : ''}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
    </HeaderCard>
  );
}
