import { messageOr } from '@streamcloud/api-client';
import {
  defaultScalingRule,
  nodeGroupRoutes,
  SCALING_LIMITS,
  ScalingActionType,
  ScalingComparison,
  ScalingConditionType,
  ScalingProviderName,
  type ScalingRule,
  type ScalingRuleDraft,
  ScalingRuleInput,
  settingsTypeFor,
} from '@streamcloud/contract';
import { type ReactNode, useEffect } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { FormFailure } from '@/components/ui/form-failure';
import { CheckField, NumberField, Options, SelectField, TextField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { nodeGroupKeys } from '@/data/node-groups/keys';
import { useUpdateScalingRule } from '@/data/node-groups/writes';
import { useRouteMutation } from '@/data/route-mutation';
import { BITS_PER_MEGABIT, formatBitrate } from '@/lib/format';
import { contractResolver, useSubmitForm } from '@/lib/forms';
import { NODE_GROUP_ERRORS } from '../utils/error-texts';
import { CONDITION_LABELS, ruleToDraft } from '../utils/format';

/** Number inputs: an empty field is "missing" (the schema says "… is required"), not NaN. */
const asNumber = { setValueAs: (value: unknown) => (value === '' || value === null ? undefined : Number(value)) };

/** The rule's inputs that hold a number. */
type NumberPath =
  | 'condition.settings.value'
  | 'condition.settings.duration'
  | 'action.settings.bandwidthLimitMbps'
  | 'action.settings.amount'
  | 'actionTimeout';

export interface ScalingRuleModalProps {
  show: boolean;
  groupId: string;
  /** The rule to edit; a new rule when absent. */
  rule?: ScalingRule;
  onHide: () => void;
}

/**
 * Add or edit a scaling rule (ADMIN). Changing the condition type resets the condition's settings
 * (GroupFull: type None; the averages: type Liner). Submit is disabled while the rule is invalid.
 */
export function ScalingRuleModal({ show, groupId, rule, onHide }: ScalingRuleModalProps) {
  const add = useRouteMutation(nodeGroupRoutes.addRule, {
    toRequest: (body: ScalingRuleDraft) => ({ params: { id: groupId }, body }),
    invalidates: () => [nodeGroupKeys.detail(groupId)],
  });
  const update = useUpdateScalingRule(groupId);
  const pending = add.isPending || update.isPending;
  // A refusal says why above the inputs, with the server's field messages under their inputs (same names).
  const { form, field, onSubmit, failure, clearFailure } = useSubmitForm<ScalingRuleDraft, ScalingRuleInput>(
    {
      resolver: contractResolver(ScalingRuleInput),
      mode: 'onChange',
      defaultValues: rule ? ruleToDraft(rule) : defaultScalingRule(),
    },
    {
      save: async (values) => {
        if (rule) await update.mutateAsync({ ruleId: rule.id, body: values });
        else await add.mutateAsync(values);
        onHide();
      },
      failureOf: (error) => messageOr(error, rule ? NODE_GROUP_ERRORS.updateRule : NODE_GROUP_ERRORS.addRule),
    },
  );
  const { register, reset, setValue, watch, formState } = form;

  useEffect(() => {
    if (!show) return;
    reset(rule ? ruleToDraft(rule) : defaultScalingRule());
    clearFailure();
  }, [show, rule, reset, clearFailure]);

  const settingsType = watch('condition.settings.type');
  const bandwidth = watch('action.settings.bandwidthLimitMbps');
  const defaults = defaultScalingRule().condition.settings;

  /** One of the rule's number inputs: bounded by the contract's limits; an empty one reads as missing. */
  const numberField = (
    id: string,
    label: string,
    path: NumberPath,
    limits: { min: number; max?: number },
    more: { step?: string; help?: ReactNode } = {},
  ) => <NumberField id={id} label={label} min={limits.min} max={limits.max} {...more} {...field(path, asNumber)} />;

  const conditionType = field('condition.type', {
    onChange: (event: { target: { value: string } }) => {
      const type = ScalingConditionType.safeParse(event.target.value);
      if (!type.success) return;
      setValue(
        'condition.settings',
        { ...defaults, type: settingsTypeFor(type.data) },
        { shouldValidate: true, shouldDirty: true },
      );
    },
  });

  const titleId = 'scaling-rule-modal-title';
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby={titleId}>
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId}>{rule ? 'Edit scaling rule' : 'Add scaling rule'}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <FormFailure>{failure}</FormFailure>
          <CheckField kind="switch" id="rule-enabled" label="Enabled" {...register('enabled')} />
          <fieldset className="mb-2">
            <legend className="h6">Condition</legend>
            <Row>
              <Col md={6}>
                <SelectField id="rule-condition-type" label="Condition type" {...conditionType}>
                  <Options values={ScalingConditionType.options} label={(type) => CONDITION_LABELS[type]} />
                </SelectField>
              </Col>
              <Col md={6}>
                {/* Follows the condition type (set with it above): shown, never typed. */}
                <TextField
                  id="rule-settings-type"
                  label="Settings type"
                  readOnly
                  plaintext
                  value={settingsType ?? ''}
                  error={formState.errors.condition?.settings?.type?.message}
                />
              </Col>
              <Col md={4}>
                <SelectField id="rule-comparison" label="Comparison" {...field('condition.settings.comparison')}>
                  <Options values={ScalingComparison.options} />
                </SelectField>
              </Col>
              <Col md={4}>
                {numberField('rule-value', 'Value (%)', 'condition.settings.value', SCALING_LIMITS.value, {
                  step: 'any',
                })}
              </Col>
              <Col md={4}>
                {numberField(
                  'rule-duration',
                  'Duration (seconds)',
                  'condition.settings.duration',
                  SCALING_LIMITS.duration,
                )}
              </Col>
            </Row>
          </fieldset>
          <fieldset className="mb-2">
            <legend className="h6">Action</legend>
            <Row>
              <Col md={6}>
                <SelectField id="rule-action-type" label="Action type" {...field('action.type')}>
                  <Options values={ScalingActionType.options} />
                </SelectField>
              </Col>
              <Col md={6}>
                <SelectField id="rule-provider" label="Provider" {...field('action.settings.provider')}>
                  <Options values={ScalingProviderName.options} />
                </SelectField>
              </Col>
              <Col md={6}>
                <TextField
                  id="rule-provider-value"
                  label="Provider value (instance type, size or shape)"
                  {...field('action.settings.value')}
                />
              </Col>
              <Col md={6}>
                {numberField(
                  'rule-bandwidth',
                  'Bandwidth limit (Mbps)',
                  'action.settings.bandwidthLimitMbps',
                  SCALING_LIMITS.bandwidthLimitMbps,
                  {
                    step: 'any',
                    help: typeof bandwidth === 'number' ? formatBitrate(bandwidth * BITS_PER_MEGABIT) : undefined,
                  },
                )}
              </Col>
              <Col md={6}>{numberField('rule-amount', 'Amount', 'action.settings.amount', SCALING_LIMITS.amount)}</Col>
              <Col md={6}>
                {numberField('rule-timeout', 'Action timeout (seconds)', 'actionTimeout', SCALING_LIMITS.actionTimeout)}
              </Col>
            </Row>
          </fieldset>
        </Modal.Body>
        <ModalActions
          onCancel={onHide}
          submitLabel={rule ? 'Save' : 'Add'}
          submitDisabled={!formState.isValid || pending}
        />
      </Form>
    </Modal>
  );
}
