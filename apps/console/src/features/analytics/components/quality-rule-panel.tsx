import { messageOr } from '@streamcloud/api-client';
import {
  analyticsRoutes,
  PERCENT_METRICS,
  QUALITY_METRICS,
  type QualityRule,
  QualityRuleBody,
} from '@streamcloud/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { FormFailure } from '@/components/ui/form-failure';
import { CheckField, Options, SelectField, TextField } from '@/components/ui/form-fields';
import { ANALYTICS_REFRESH_MS, analyticsKeys } from '@/data/analytics/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { formatDateTime } from '@/lib/format';
import { contractResolver, useSubmitForm } from '@/lib/forms';
import { QUALITY_TEXTS } from '../utils/messages';
import {
  formatQualityValue,
  QUALITY_METRIC_LABELS,
  type QualityRuleForm,
  qualityRuleFieldOfPath,
  toQualityRuleBody,
  toQualityRuleForm,
} from '../utils/quality-rule-form';
import { LoadError } from './load-error';

/** The threshold as the rule reads: `2 %`, `2.0 s`. */
const thresholdOf = (rule: Pick<QualityRule, 'metric' | 'threshold'>) =>
  formatQualityValue(rule.metric, rule.threshold);

/** The stream's quality alert in its Viewer experience card: the rule, whether it holds now, and its form. */
export function QualityRulePanel({ streamId }: { streamId: string }) {
  const rule = useRouteQuery(
    analyticsRoutes.qualityRule,
    analyticsKeys.qualityRule(streamId),
    { params: { id: streamId } },
    // Degraded or not is decided by the server's periodic check: shown as it moves.
    { refetchInterval: ANALYTICS_REFRESH_MS },
  );
  const [editing, setEditing] = useState(false);
  return (
    <section className="mb-3" aria-labelledby="quality-rule-title">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h3 className="h6 mb-0" id="quality-rule-title">
          {QUALITY_TEXTS.title}
        </h3>
        {rule.data ? <StateBadge rule={rule.data} /> : null}
        {rule.data && !editing ? (
          <Button size="sm" variant="outline-secondary" className="ms-auto" onClick={() => setEditing(true)}>
            {QUALITY_TEXTS.edit}
          </Button>
        ) : null}
      </div>
      {rule.isError ? <LoadError error={rule.error} fallback={QUALITY_TEXTS.loadFailed} /> : null}
      {rule.data && !editing ? <RuleSummary rule={rule.data} /> : null}
      {rule.data && editing ? (
        <QualityRuleEditor streamId={streamId} rule={rule.data} onDone={() => setEditing(false)} />
      ) : null}
    </section>
  );
}

function StateBadge({ rule }: { rule: QualityRule }) {
  const degraded = rule.state === 'Degraded';
  return (
    <Badge bg={degraded ? 'danger' : 'success'}>
      {rule.state}
      {degraded && rule.since ? ` ${QUALITY_TEXTS.since(formatDateTime(rule.since))}` : ''}
    </Badge>
  );
}

function RuleSummary({ rule }: { rule: QualityRule }) {
  if (!rule.enabled) return <p className="small text-secondary mb-0">{QUALITY_TEXTS.off}</p>;
  return (
    <p className="small mb-0">
      {QUALITY_TEXTS.rule(QUALITY_METRIC_LABELS[rule.metric], thresholdOf(rule), rule.windowMinutes, rule.minViewers)}
      {rule.checkedAt ? ` ${QUALITY_TEXTS.lastCheck(formatQualityValue(rule.metric, rule.value), rule.viewers)}` : ''}
    </p>
  );
}

function QualityRuleEditor({ streamId, rule, onDone }: { streamId: string; rule: QualityRule; onDone: () => void }) {
  const save = useRouteMutation(analyticsRoutes.setQualityRule, {
    toRequest: (body: QualityRuleBody) => ({ params: { id: streamId }, body }),
    sets: () => analyticsKeys.qualityRule(streamId),
  });
  const { form, field, onSubmit, failure } = useSubmitForm<QualityRuleForm>(
    {
      resolver: contractResolver(QualityRuleBody, { toBody: toQualityRuleBody, fieldOfPath: qualityRuleFieldOfPath }),
      defaultValues: toQualityRuleForm(rule),
    },
    {
      save: async (values) => {
        await save.mutateAsync(toQualityRuleBody(values));
        onDone();
      },
      failureOf: (error) => messageOr(error, QUALITY_TEXTS.saveFailed),
      fieldOfPath: qualityRuleFieldOfPath,
    },
  );
  const percent = PERCENT_METRICS.has(form.watch('metric'));
  // The rule's two numbers: typed as text (the contract's schema reads them), each with its unit in its help.
  const numberFields = [
    {
      name: 'threshold',
      id: 'quality-threshold',
      label: QUALITY_TEXTS.threshold,
      inputMode: 'decimal',
      help: percent ? QUALITY_TEXTS.thresholdHelp.percent : QUALITY_TEXTS.thresholdHelp.ms,
    },
    {
      name: 'windowMinutes',
      id: 'quality-window',
      label: QUALITY_TEXTS.window,
      inputMode: 'numeric',
      help: QUALITY_TEXTS.windowHelp,
    },
  ] as const;
  return (
    <form noValidate onSubmit={onSubmit} aria-label={QUALITY_TEXTS.form}>
      <FormFailure className="py-2">{failure}</FormFailure>
      <CheckField
        id="quality-enabled"
        kind="switch"
        label={QUALITY_TEXTS.enabled}
        help={QUALITY_TEXTS.enabledHelp}
        {...form.register('enabled')}
      />
      <div className="row row-cols-md-3">
        <SelectField id="quality-metric" label={QUALITY_TEXTS.metric} {...field('metric')}>
          <Options values={QUALITY_METRICS} label={(metric) => QUALITY_METRIC_LABELS[metric]} />
        </SelectField>
        {numberFields.map((input) => (
          <TextField
            key={input.name}
            id={input.id}
            label={input.label}
            inputMode={input.inputMode}
            help={input.help}
            {...field(input.name)}
          />
        ))}
      </div>
      <div className="d-flex gap-2">
        <Button type="submit" size="sm" disabled={form.formState.isSubmitting}>
          {QUALITY_TEXTS.save}
        </Button>
        <Button type="button" size="sm" variant="outline-secondary" onClick={onDone}>
          {QUALITY_TEXTS.cancel}
        </Button>
      </div>
    </form>
  );
}
