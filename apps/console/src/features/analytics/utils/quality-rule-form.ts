import { PERCENT_METRICS, type QualityMetric, type QualityRule, type QualityRuleBody } from '@streamcloud/contract';
import { namedFields } from '@/lib/forms';
import { formatMs } from './analytics-format';

/** What each metric is called on screen. */
export const QUALITY_METRIC_LABELS: Record<QualityMetric, string> = {
  rebufferPercent: 'Rebuffer ratio',
  errorPercent: 'Error rate',
  ttffP95Ms: 'Time to first frame (p95)',
  startupP95Ms: 'Startup time (p95)',
  latencyP95Ms: 'Latency to live (p95)',
};

/** The alert form's inputs: numbers as typed, checked by the contract's schema as the body they make. */
export interface QualityRuleForm {
  enabled: boolean;
  metric: QualityMetric;
  threshold: string;
  windowMinutes: string;
}

export const toQualityRuleForm = (rule: QualityRule): QualityRuleForm => ({
  enabled: rule.enabled,
  metric: rule.metric,
  threshold: String(rule.threshold),
  windowMinutes: String(rule.windowMinutes),
});

/** Blank stays blank (NaN), so the schema says the field must be a number rather than taking 0. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export const toQualityRuleBody = (values: QualityRuleForm): QualityRuleBody => ({
  enabled: values.enabled,
  metric: values.metric,
  threshold: numberOf(values.threshold),
  windowMinutes: numberOf(values.windowMinutes),
});

export const qualityRuleFieldOfPath = namedFields<QualityRuleForm>(['enabled', 'metric', 'threshold', 'windowMinutes']);

/** A metric's value in its unit: `2.5 %`, `1.9 s`; `—` without samples. */
export function formatQualityValue(metric: QualityMetric, value: number | null): string {
  if (value === null) return '—';
  return PERCENT_METRICS.has(metric) ? `${Number(value.toFixed(1))} %` : formatMs(value);
}
