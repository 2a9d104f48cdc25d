import { describe, expect, it } from 'vitest';
import { FallbackInput } from './fallbacks.js';

const STREAM = '7b0b7e9e-6f54-4a0e-9f58-5d1e1c4b2a11';
const STORAGE = '0c1d2e3f-4a5b-4c6d-8e7f-901234567890';
const issues = (value: unknown) => {
  const result = FallbackInput.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};
const fallback = (type: string, resource: { type: string; data: string }, extra: object = {}) => ({
  streamId: STREAM,
  type,
  settings: { resources: [resource] },
  ...extra,
});

describe('fallback form rules', () => {
  it('needs a type, a stream and data; the label is at most 250 characters', () => {
    expect(issues({ settings: { resources: [] } })).toEqual([
      'streamId: Stream is required',
      'type: Type is required',
      'settings.resources: Data is required',
    ]);
    expect(issues(fallback('Slate', { type: 'URL', data: '' }))).toEqual([
      'settings.resources.0.data: Data is required',
    ]);
    expect(
      issues(fallback('Slate', { type: 'URL', data: 'https://example.com/slate.png' }, { label: 'x'.repeat(250) })),
    ).toEqual([]);
    expect(
      issues(fallback('Slate', { type: 'URL', data: 'https://example.com/slate.png' }, { label: 'x'.repeat(251) })),
    ).toEqual(['label: Label must be at most 250 characters']);
    expect(
      FallbackInput.parse(fallback('Slate', { type: 'URL', data: 'https://e.com/a.png' }, { label: '  ' })).label,
    ).toBeNull();
  });

  it('takes the sources each type allows', () => {
    expect(issues(fallback('Slate', { type: 'DATA_URI', data: 'data:image/png;base64,AAAA' }))).toEqual([]);
    expect(issues(fallback('Slate', { type: 'DATA_URI', data: 'https://example.com/a.png' }))).toEqual([
      'settings.resources.0.data: Data must be a data URI',
    ]);
    expect(issues(fallback('Slate', { type: 'STORAGE', data: `${STORAGE}/slates/a.png` }))).toEqual([]);
    expect(issues(fallback('Video', { type: 'STORAGE', data: 'nope' }))).toEqual([
      'settings.resources.0.data: Storage source must be <storage id>/<object key>',
    ]);
    expect(issues(fallback('Input', { type: 'URL', data: 'rtmp://live.example.com/app/key' }))).toEqual([]);
    expect(issues(fallback('Input', { type: 'URL', data: 'ftp://example.com/x' }))).toEqual([
      'settings.resources.0.data: URL must be a rtmp, rtmps, rtsp, srt, http, https URL',
    ]);
    expect(issues(fallback('Video', { type: 'URL', data: 'rtmp://example.com/x' }))).toEqual([
      'settings.resources.0.data: URL must be a http, https URL',
    ]);
    expect(issues(fallback('Input', { type: 'DATA_URI', data: 'data:image/png;base64,AAAA' }))).toEqual([
      'settings.resources.0.type: A Input fallback takes URL',
    ]);
  });
});
