import { CLIP_MESSAGES } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { fieldErrors, formatDuration, toBody } from './clip-values';

const STREAM = '00000000-0000-4000-8000-000000000051';

describe('clip values', () => {
  it('names the field and the rule the contract refuses', () => {
    const from = '2026-01-01T10:00:00.000Z';
    expect(fieldErrors(toBody(STREAM, { from, to: from, caption: '', storageId: '' }))).toEqual({
      to: CLIP_MESSAGES.toAfterFrom,
    });
    expect(
      fieldErrors(toBody(STREAM, { from, to: '2026-01-01T10:10:00.001Z', caption: 'x'.repeat(256), storageId: '' })),
    ).toEqual({ to: CLIP_MESSAGES.tooLong, caption: CLIP_MESSAGES.captionMax });
    expect(fieldErrors(toBody(STREAM, { from, to: '2026-01-01T10:00:30.000Z', caption: 'ok', storageId: '' }))).toEqual(
      {},
    );
  });

  it('formats durations', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(4.46)).toBe('4.5 s');
    expect(formatDuration(125)).toBe('2 min 5.0 s');
  });
});
