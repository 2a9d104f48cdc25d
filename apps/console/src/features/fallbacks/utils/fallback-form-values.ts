import {
  FALLBACK_SOURCES,
  type Fallback,
  FallbackInput,
  type FallbackInputDraft,
  type FallbackResourceType,
  type FallbackType,
} from '@streamcloud/contract';
import type { Resolver } from 'react-hook-form';
import { contractResolver, fieldsByPath } from '@/lib/forms';

export interface FallbackFormValues {
  type: FallbackType | '';
  label: string;
  source: FallbackResourceType | '';
  /** A data URI (slate upload), a URL or `<storage id>/<object key>`. */
  data: string;
}

export const NEW_FALLBACK_VALUES: FallbackFormValues = { type: '', label: '', source: '', data: '' };

export function toFormValues(fallback: Fallback): FallbackFormValues {
  const resource = fallback.settings.resources[0];
  return { type: fallback.type, label: fallback.label ?? '', source: resource?.type ?? '', data: resource?.data ?? '' };
}

/** The first source a type takes (a new Slate starts with an upload). */
export const defaultSource = (type: FallbackType | ''): FallbackResourceType | '' =>
  type === '' ? '' : (FALLBACK_SOURCES[type][0] ?? '');

export function toBody(streamId: string, values: FallbackFormValues): FallbackInputDraft {
  return {
    streamId,
    type: values.type as FallbackType,
    label: values.label,
    settings: {
      resources: values.source !== '' && values.data !== '' ? [{ type: values.source, data: values.data }] : [],
    },
  };
}

const fieldOfPath = fieldsByPath<FallbackFormValues>({
  type: 'type',
  label: 'label',
  'settings.resources': 'data',
  'settings.resources.0.data': 'data',
  'settings.resources.0.type': 'source',
});

/** The contract's rules (the server's own) with each message under its input. */
export function fallbackResolver(streamId: string): Resolver<FallbackFormValues> {
  return contractResolver(FallbackInput, { toBody: (values) => toBody(streamId, values), fieldOfPath });
}
