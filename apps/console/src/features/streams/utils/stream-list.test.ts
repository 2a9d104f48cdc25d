import type { StreamInputSummary } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import {
  accessTooltip,
  FORMAT_OPTIONS,
  filterCaption,
  matchesFilters,
  matchesSearch,
  mergePages,
  NO_FILTERS,
  narrowingVisibleStreams,
  OUTPUT_MODE_OPTIONS,
  STATUS_OPTIONS,
  sortStreams,
  toggleValue,
  UNKNOWN_ACCESS_MODE,
  visibleStreams,
} from './stream-list';

let sequence = 0;
function summary(extra: Partial<StreamInputSummary> = {}): StreamInputSummary {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    ownerId: '00000000-0000-4000-8000-0000000000aa',
    caption: null,
    format: 'WebRTC',
    status: 'Idle',
    access: 'Public',
    outputMode: 'AdjustableTranscode',
    name: `in+${sequence}`,
    nodeId: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('filter captions', () => {
  it("say 'All' when nothing is selected", () => {
    expect(filterCaption(FORMAT_OPTIONS, [])).toBe('All');
  });

  it('join the selected names with commas, in the options order', () => {
    expect(filterCaption(FORMAT_OPTIONS, ['SRT', 'WebRTC'])).toBe('WebRTC, SRT');
    expect(filterCaption(STATUS_OPTIONS, ['Error'])).toBe('Error');
  });

  it('name the processing modes as the console shows them', () => {
    expect(filterCaption(OUTPUT_MODE_OPTIONS, ['Passthrough', 'AdjustableTranscode'])).toBe(
      'Adjustable transcoding, Passthrough',
    );
  });
});

describe('search', () => {
  const stream = summary({ id: 'ABCDEF00-0000-4000-8000-000000000001', caption: 'Morning Show' });

  it('matches the caption case-insensitively, with the typed text trimmed', () => {
    expect(matchesSearch(stream, '  morning ')).toBe(true);
    expect(matchesSearch(stream, 'SHOW')).toBe(true);
    expect(matchesSearch(stream, 'evening')).toBe(false);
  });

  it('matches the id case-insensitively', () => {
    expect(matchesSearch(stream, 'abcdef00')).toBe(true);
  });

  it('lets everything through when empty or blank', () => {
    expect(matchesSearch(stream, '')).toBe(true);
    expect(matchesSearch(stream, '   ')).toBe(true);
  });

  it('works on streams without a caption', () => {
    expect(matchesSearch(summary({ caption: null }), 'show')).toBe(false);
  });
});

describe('filters', () => {
  const rtmpLive = summary({ format: 'RTMP', status: 'Ingestion', outputMode: 'Passthrough' });

  it('let everything through when nothing is selected', () => {
    expect(matchesFilters(rtmpLive, NO_FILTERS)).toBe(true);
  });

  it('keep a stream whose format, status and processing are among the selected ones', () => {
    expect(matchesFilters(rtmpLive, { ...NO_FILTERS, formats: ['RTMP', 'SRT'] })).toBe(true);
    expect(matchesFilters(rtmpLive, { ...NO_FILTERS, formats: ['SRT'] })).toBe(false);
    expect(matchesFilters(rtmpLive, { ...NO_FILTERS, statuses: ['Ingestion'] })).toBe(true);
    expect(matchesFilters(rtmpLive, { ...NO_FILTERS, statuses: ['Idle', 'Error'] })).toBe(false);
    expect(matchesFilters(rtmpLive, { ...NO_FILTERS, outputModes: ['Passthrough'] })).toBe(true);
    expect(matchesFilters(rtmpLive, { ...NO_FILTERS, outputModes: ['AdjustableTranscode'] })).toBe(false);
  });

  it('combine the three filters and the search', () => {
    const filters = {
      search: 'zzz',
      formats: ['RTMP'],
      statuses: ['Ingestion'],
      outputModes: ['Passthrough'],
    } as const;
    expect(matchesFilters(rtmpLive, filters)).toBe(false);
    expect(matchesFilters(rtmpLive, { ...filters, search: rtmpLive.id.slice(-6) })).toBe(true);
  });

  it('toggle values of a multi-select', () => {
    expect(toggleValue(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleValue(['a', 'b'], 'a')).toEqual(['b']);
  });
});

describe('order', () => {
  it('is by format, then caption or id, case-insensitively', () => {
    const a = summary({ format: 'WebRTC', caption: 'alpha' });
    const b = summary({ format: 'RTMP', caption: 'Zulu' });
    const c = summary({ format: 'RTMP', caption: 'bravo' });
    const d = summary({ format: 'RTMP', caption: null, id: '00000000-0000-4000-8000-00000000ffff' });
    const e = summary({ format: 'Internode', caption: 'x' });
    expect(sortStreams([a, b, c, d, e]).map((stream) => stream.id)).toEqual([e.id, d.id, c.id, b.id, a.id]);
  });

  it('merges loaded pages, each stream once', () => {
    const a = summary({ caption: 'a' });
    const b = summary({ caption: 'b' });
    const bUpdated = { ...b, status: 'Ingestion' as const };
    expect(mergePages([[b, a], [bUpdated]])).toEqual([a, bUpdated]);
  });
});

describe('visible streams', () => {
  const a = summary({ caption: 'a' });
  const b = summary({ caption: 'b' });
  const created = summary({ caption: 'zzz new' });

  it('puts the just-created stream first and marks it new', () => {
    const listed = visibleStreams([a, b, created], NO_FILTERS, created);
    expect(listed.map((item) => [item.stream.caption, item.isNew])).toEqual([
      ['zzz new', true],
      ['a', false],
      ['b', false],
    ]);
  });

  it('shows the created stream even before a reload lists it, with its latest state once it does', () => {
    expect(visibleStreams([a], NO_FILTERS, created)[0]).toEqual({ stream: created, isNew: true });
    const live = { ...created, status: 'Ingestion' as const };
    expect(visibleStreams([live, a], NO_FILTERS, created)[0]).toEqual({ stream: live, isNew: true });
  });

  it('applies the search and the filters to every stream, the new one too', () => {
    expect(visibleStreams([a, b, created], { ...NO_FILTERS, search: 'B' }, created).map((i) => i.stream)).toEqual([b]);
  });
});

describe('narrowing visible streams', () => {
  const streams = sortStreams([
    summary({ caption: 'Show 0420' }),
    summary({ caption: 'Show 0421' }),
    summary({ caption: 'Show 0430' }),
    summary({ caption: 'Other' }),
  ]);
  const captions = (items: { stream: StreamInputSummary }[]) => items.map((item) => item.stream.caption);

  it('answers as visibleStreams whether the search grows, shrinks or changes', () => {
    const visible = narrowingVisibleStreams();
    for (const search of ['0', '04', '042', '0420', '042', '', 'show 043', 'Other', 'x']) {
      const filters = { ...NO_FILTERS, search };
      expect(captions(visible(streams, filters, null))).toEqual(captions(visibleStreams(streams, filters, null)));
    }
  });

  it('starts over when the list, the new stream or a filter choice changes', () => {
    const visible = narrowingVisibleStreams();
    const srt = { ...NO_FILTERS, search: 'show', formats: ['SRT' as const] };
    visible(streams, srt, null);
    const every = { ...NO_FILTERS, search: 'show 04' };
    expect(captions(visible(streams, every, null))).toEqual(['Show 0420', 'Show 0421', 'Show 0430']);
    const more = [...streams, summary({ caption: 'Show 0422' })];
    expect(captions(visible(more, { ...every, search: 'show 042' }, null))).toEqual([
      'Show 0420',
      'Show 0421',
      'Show 0422',
    ]);
    const created = summary({ caption: 'Show 0429' });
    expect(captions(visible(more, { ...every, search: 'show 042' }, created))[0]).toBe('Show 0429');
  });
});

describe('access tooltip', () => {
  it('explains known modes and says so for unknown ones', () => {
    expect(accessTooltip('Private')).toContain('token');
    expect(accessTooltip('Secret')).toBe(UNKNOWN_ACCESS_MODE);
  });
});
