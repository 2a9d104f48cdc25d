import { messageOr } from '@streamcloud/api-client';
import {
  NO_OWNER,
  NODE_GROUP_ASSIGNMENTS,
  type NodeGroup,
  NodeGroupCreate,
  type NodeGroupCreateInput,
  nodeGroupRoutes,
} from '@streamcloud/contract';
import { useEffect } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { Options, SelectField, TextAreaField, TextField, UrlField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useAccounts } from '@/data/accounts/get-accounts';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useUpdateNodeGroup } from '@/data/node-groups/writes';
import { savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { contractResolver, fieldsOf } from '@/lib/forms';
import { NODE_GROUP_ERRORS } from '../utils/error-texts';

type Values = NodeGroupCreateInput;

const EMPTY: Values = {
  name: '',
  description: '',
  assignment: 'Common',
  ownerId: NO_OWNER,
  onResourcesChangeCallbackUri: '',
};

function valuesOf(group: NodeGroup | undefined): Values {
  if (!group) return EMPTY;
  return {
    name: group.name,
    description: group.description ?? '',
    assignment: group.assignment,
    ownerId: group.ownerId ?? NO_OWNER,
    onResourcesChangeCallbackUri: group.onResourcesChangeCallbackUri ?? '',
  };
}

export interface NodeGroupModalProps {
  show: boolean;
  /** The group to edit; a new group when absent. */
  group?: NodeGroup;
  onHide: () => void;
  onSaved?: (group: NodeGroup) => void;
}

/** Create or edit a node group (ADMIN); closes by its close button, Escape or a click on the backdrop. */
export function NodeGroupModal({ show, group, onHide, onSaved }: NodeGroupModalProps) {
  const notify = useNotify();
  const owners = useAccounts({ enabled: show });
  const create = useRouteMutation(nodeGroupRoutes.create, {
    toRequest: (body: NodeGroupCreateInput) => ({ body }),
    ...savesResource(nodeGroupKeys),
  });
  const update = useUpdateNodeGroup();
  const form = useForm<Values, unknown, NodeGroupCreate>({
    resolver: contractResolver(NodeGroupCreate),
    mode: 'onChange',
    defaultValues: valuesOf(group),
  });
  const { handleSubmit, reset, formState } = form;
  const field = fieldsOf(form);
  const pending = create.isPending || update.isPending;

  useEffect(() => {
    if (show) reset(valuesOf(group));
  }, [show, group, reset]);

  const submit = handleSubmit(async (values) => {
    const body = {
      name: values.name,
      description: values.description ?? null,
      assignment: values.assignment,
      ownerId: values.ownerId ?? NO_OWNER,
      onResourcesChangeCallbackUri: values.onResourcesChangeCallbackUri ?? null,
    };
    try {
      const saved = group ? await update.mutateAsync({ id: group.id, body }) : await create.mutateAsync(body);
      onHide();
      onSaved?.(saved);
    } catch (error) {
      notify(messageOr(error, group ? NODE_GROUP_ERRORS.update : NODE_GROUP_ERRORS.create));
    }
  });

  const sortedOwners = [...(owners.data ?? [])].sort((a, b) =>
    a.username.localeCompare(b.username, undefined, { sensitivity: 'base' }),
  );
  const titleId = 'node-group-modal-title';
  return (
    <Modal show={show} onHide={onHide} aria-labelledby={titleId}>
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId}>{group ? 'Edit node group' : 'Create node group'}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <TextField id="node-group-name" label="Name" {...field('name')} />
          <TextAreaField id="node-group-description" label="Description" rows={3} {...field('description')} />
          <SelectField id="node-group-assignment" label="Assignment" {...field('assignment')}>
            <Options values={NODE_GROUP_ASSIGNMENTS} />
          </SelectField>
          <SelectField id="node-group-owner" label="Owner" {...field('ownerId')}>
            <option value={NO_OWNER}>Streaming Cloud</option>
            {sortedOwners.map((account) => (
              <option key={account.id} value={account.id}>
                {account.username}
              </option>
            ))}
            {group?.owner && !sortedOwners.some((account) => account.id === group.owner?.id) && (
              <option value={group.owner.id}>{group.owner.username}</option>
            )}
          </SelectField>
          <UrlField
            id="node-group-callback"
            label="Resources change callback URI"
            placeholder="https://"
            {...field('onResourcesChangeCallbackUri')}
          />
        </Modal.Body>
        <ModalActions
          onCancel={onHide}
          submitLabel={group ? 'Save' : 'Create'}
          submitDisabled={!formState.isValid || pending}
        />
      </Form>
    </Modal>
  );
}
