import { describe, expect, it } from 'vitest';
import {
  CAPTURE_MESSAGES,
  CaptureInput,
  capturePreset,
  describeSelector,
  emptySelector,
  isSelectorValid,
  selectorConstrains,
  selectorIssues,
  type TrackSelector,
  TrackSelectorInput,
} from './capture.js';
import {
  applyFileFormat,
  captureFormatIssues,
  MP4_TOOLTIP,
  RecordingCreate,
  RecordingFormSchema,
  RecordingUpdate,
} from './recordings.js';

const video = (changes: Partial<TrackSelector> = {}): TrackSelector => ({ ...emptySelector('Video'), ...changes });
const audio = (changes: Partial<TrackSelector> = {}): TrackSelector => ({ ...emptySelector('Audio'), ...changes });
const messages = (selector: TrackSelector) => selectorIssues(selector).map((issue) => issue.message);

describe('track selector validity (section 5)', () => {
  it("describes a selector that sets nothing as 'All', and it is valid", () => {
    expect(describeSelector(video())).toBe('All');
    expect(describeSelector(audio())).toBe('All');
    expect(isSelectorValid(video())).toBe(true);
    expect(selectorConstrains(video())).toBe(false);
  });

  it('is valid with an idx, a codec, a valid bitrate condition or (video) a valid resolution condition', () => {
    expect(isSelectorValid(video({ idx: 0 }))).toBe(true);
    expect(isSelectorValid(audio({ codec: 'Opus' }))).toBe(true);
    expect(isSelectorValid(audio({ bitrate: { value: 128, condition: 'Approximate' } }))).toBe(true);
    expect(
      isSelectorValid(video({ resolution: { width: null, height: null, condition: 'Max', approximate: null } })),
    ).toBe(true);
    for (const selector of [
      video({ idx: 0 }),
      audio({ codec: 'Opus' }),
      video({ bitrate: { value: null, condition: 'Max' } }),
    ]) {
      expect(selectorConstrains(selector)).toBe(true);
    }
  });

  it('needs width and height only for Exact or Approximate resolutions', () => {
    expect(
      messages(video({ resolution: { width: null, height: 720, condition: 'Exact', approximate: null } })),
    ).toEqual([CAPTURE_MESSAGES.widthRequired]);
    expect(
      messages(video({ resolution: { width: null, height: null, condition: 'Approximate', approximate: 10 } })),
    ).toEqual([CAPTURE_MESSAGES.widthRequired, CAPTURE_MESSAGES.heightRequired]);
    expect(messages(video({ resolution: { width: null, height: null, condition: 'Min', approximate: null } }))).toEqual(
      [],
    );
    expect(messages(video({ resolution: { width: 640, height: null, condition: 'Min', approximate: null } }))).toEqual([
      CAPTURE_MESSAGES.dimensionsTogether,
    ]);
  });

  it('needs a bitrate above 0 for Approximate, Greater or Less, not for Min or Max', () => {
    for (const condition of ['Approximate', 'Greater', 'Less'] as const) {
      expect(messages(audio({ bitrate: { value: 0, condition } }))).toEqual([CAPTURE_MESSAGES.bitrateValue]);
      expect(messages(audio({ bitrate: { value: null, condition } }))).toEqual([CAPTURE_MESSAGES.bitrateValue]);
      expect(messages(audio({ bitrate: { value: 1, condition } }))).toEqual([]);
    }
    for (const condition of ['Min', 'Max'] as const) {
      expect(messages(audio({ bitrate: { value: null, condition } }))).toEqual([]);
    }
  });

  it('keeps codecs and resolutions to their track type', () => {
    expect(messages(video({ codec: 'AAC' }))).toEqual([CAPTURE_MESSAGES.codecType('Video')]);
    expect(messages(audio({ codec: 'VP9' }))).toEqual([CAPTURE_MESSAGES.codecType('Audio')]);
    expect(messages(audio({ resolution: { width: 1, height: 1, condition: 'Exact', approximate: null } }))).toEqual([
      CAPTURE_MESSAGES.resolutionAudio,
    ]);
  });

  it('describes conditions in words', () => {
    expect(
      describeSelector(
        video({
          idx: 1,
          codec: 'H264',
          resolution: { width: 1280, height: 720, condition: 'Exact', approximate: null },
          bitrate: { value: 2000, condition: 'Greater' },
        }),
      ),
    ).toBe('track #1, H264, 1280x720, over 2000 kbps');
    expect(
      describeSelector(video({ resolution: { width: 1920, height: 1080, condition: 'Approximate', approximate: 5 } })),
    ).toBe('about 1920x1080 (±5%)');
    expect(
      describeSelector(video({ resolution: { width: null, height: null, condition: 'Max', approximate: null } })),
    ).toBe('best resolution');
    expect(describeSelector(audio({ bitrate: { value: null, condition: 'Min' } }))).toBe('lowest bitrate');
  });

  it('parses requests: absent conditions become null, minimum 0, the rules as field errors', () => {
    expect(TrackSelectorInput.parse({ type: 'Audio' })).toEqual(audio());
    const negative = TrackSelectorInput.safeParse({ type: 'Video', idx: -1 });
    expect(negative.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['idx', 'Track index must be at least 0'],
    ]);
    const incomplete = TrackSelectorInput.safeParse({ type: 'Video', resolution: { condition: 'Exact', width: 1 } });
    expect(incomplete.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['resolution.height', CAPTURE_MESSAGES.heightRequired],
    ]);
    expect(CaptureInput.safeParse({ source: 'Incoming', tracks: [] }).error?.issues[0]?.message).toBe(
      CAPTURE_MESSAGES.tracksRequired,
    );
  });
});

describe('capture presets (section 4)', () => {
  it('All: one video and one audio selector without constraints', () => {
    expect(capturePreset('All')).toEqual([video(), audio()]);
  });

  it('Best resolution: video with condition Max, plus audio', () => {
    expect(capturePreset('BestResolution')).toEqual([
      video({ resolution: { width: null, height: null, condition: 'Max', approximate: null } }),
      audio(),
    ]);
  });

  it('Current tracks: one selector per existing track idx', () => {
    expect(
      capturePreset('CurrentTracks', [
        { idx: 0, type: 'Video' },
        { idx: 1, type: 'Audio' },
        { idx: 1, type: 'Audio' },
      ]),
    ).toEqual([video({ idx: 0 }), audio({ idx: 1 })]);
    expect(capturePreset('CurrentTracks', [])).toEqual([]);
  });
});

describe('file formats (section 4)', () => {
  const selectors = [
    video({ codec: 'H264' }),
    video({ codec: 'VP8' }),
    video({ codec: 'VP9' }),
    audio({ codec: 'AAC' }),
    audio({ codec: 'Opus' }),
    audio({ codec: 'MP3' }),
    video(),
  ];

  it('MP4 keeps H264, AAC, MP3 and selectors without a codec; MKV keeps all six', () => {
    expect(applyFileFormat(selectors, 'MP4').map((selector) => selector.codec)).toEqual(['H264', 'AAC', 'MP3', null]);
    expect(applyFileFormat(selectors, 'MKV')).toEqual(selectors);
  });

  it('flags the codecs the format cannot hold with the MP4 tooltip text', () => {
    expect(captureFormatIssues(selectors, 'MP4')).toEqual([
      { path: ['capture', 'tracks', 1, 'codec'], message: MP4_TOOLTIP },
      { path: ['capture', 'tracks', 2, 'codec'], message: MP4_TOOLTIP },
      { path: ['capture', 'tracks', 4, 'codec'], message: MP4_TOOLTIP },
    ]);
    expect(MP4_TOOLTIP).toBe('MP4 format restrictions: H.264, AAC, MP3 codec is supported');
  });
});

describe('recording bodies (section 5)', () => {
  const base = {
    streamId: '11111111-2222-4333-8444-555555555555',
    storageId: '11111111-2222-4333-8444-666666666666',
    capture: { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] },
  };

  it('defaults to the uuid template, MKV and no autostart', () => {
    expect(RecordingCreate.parse(base)).toMatchObject({ fileName: '{uuid}', fileFormat: 'MKV', autostart: false });
  });

  it('normalises the file name: blank → uuid, autostart without placeholders → uuid appended', () => {
    expect(RecordingCreate.parse({ ...base, fileName: '  ' }).fileName).toBe('{uuid}');
    expect(RecordingCreate.parse({ ...base, fileName: 'show', autostart: true }).fileName).toBe('show_{uuid}');
    expect(RecordingCreate.parse({ ...base, fileName: 'show' }).fileName).toBe('show');
  });

  it('refuses the section 5 violations with field messages', () => {
    const issues = (body: object, schema: typeof RecordingCreate | typeof RecordingFormSchema = RecordingCreate) =>
      schema.safeParse(body).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ ...base, streamId: '' })).toContainEqual(['streamId', 'Stream ID is required']);
    expect(issues({ ...base, streamId: 'x'.repeat(65) })).toContainEqual([
      'streamId',
      'Stream ID must be at most 64 characters',
    ]);
    expect(issues({ ...base, fileName: 'f'.repeat(256) })).toEqual([
      ['fileName', 'File name must be at most 255 characters'],
    ]);
    expect(issues({ ...base, fileName: '' }, RecordingFormSchema)).toEqual([['fileName', 'File name is required']]);
    expect(issues({ ...base, storageId: '' })).toEqual([['storageId', 'Storage is required']]);
    expect(issues({ ...base, callbackUri: `https://x.example/${'a'.repeat(250)}` })).toEqual([
      ['callbackUri', 'Callback URI must be at most 255 characters'],
    ]);
    expect(issues({ ...base, fileFormat: 'AVI' })).toEqual([['fileFormat', 'File format must be MKV or MP4']]);
    expect(
      issues({
        ...base,
        fileFormat: 'MP4',
        capture: { source: 'Incoming', tracks: [{ type: 'Audio', codec: 'Opus' }] },
      }),
    ).toEqual([['capture.tracks.0.codec', MP4_TOOLTIP]]);
  });

  it('lets an update repeat the fixed fields but requires the changeable ones', () => {
    const update = RecordingUpdate.safeParse({ fileFormat: 'MKV', autostart: false, capture: base.capture });
    expect(update.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['fileName', 'storageId']);
  });
});
