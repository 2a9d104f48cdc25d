import { type Clip, ClipCreate, type ClipCreateInput } from '@streamcloud/contract';

/** What the dialog holds: the marks as ISO date-times, the caption, and a storage id ('' for the default). */
export interface ClipValues {
  from: string;
  to: string;
  caption: string;
  storageId: string;
}

export const emptyClipValues: ClipValues = { from: '', to: '', caption: '', storageId: '' };

/** The request body for a stream clip. */
export function toBody(streamId: string, values: ClipValues): ClipCreateInput {
  return {
    streamId,
    from: values.from.trim(),
    to: values.to.trim(),
    caption: values.caption,
    ...(values.storageId ? { storageId: values.storageId } : {}),
  };
}

/** The contract's refusals of a body, by field (`from`, `to`, `caption`, `storageId`, `streamId`); none: valid. */
export function fieldErrors(body: ClipCreateInput): Record<string, string> {
  const parsed = ClipCreate.safeParse(body);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'streamId');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A clip's length as the list shows it: "4.5 s", "2 min 5.0 s"; an em dash until it is known. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${(seconds - minutes * 60).toFixed(1)} s`;
}

/** Badge colours of the clip states. */
export const CLIP_STATE_VARIANTS: Record<Clip['state'], string> = {
  Pending: 'secondary',
  Processing: 'info',
  Ready: 'success',
  Error: 'danger',
};
