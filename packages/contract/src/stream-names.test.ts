import { describe, expect, it } from 'vitest';
import { makeStreamName, outputModeOfName, parsePlaybackName, streamNameFromUri } from './stream-names.js';

const id = '0b9a3c1e-2d4f-4a6b-8c0d-1e2f3a4b5c6d';

describe('stream names', () => {
  it('takes the last path segment, or streamid for SRT', () => {
    expect(streamNameFromUri(`rtmp://node:1935/live/in+${id}`)).toBe(`in+${id}`);
    expect(streamNameFromUri(`rtsp://node:8554/live/pt%2B${id}`)).toBe(`pt+${id}`);
    expect(streamNameFromUri(`srt://node:9710?streamid=in%2B${id}`)).toBe(`in+${id}`);
    expect(streamNameFromUri('srt://node:9710')).toBeNull();
    expect(streamNameFromUri('not a uri')).toBeNull();
  });

  it("reads 'in' then + or whitespace as adjustable transcoding, anything else as passthrough", () => {
    expect(outputModeOfName(`in+${id}`)).toBe('AdjustableTranscode');
    expect(outputModeOfName('in stream')).toBe('AdjustableTranscode');
    expect(outputModeOfName(`pt+${id}`)).toBe('Passthrough');
    expect(outputModeOfName('input')).toBe('Passthrough');
    expect(outputModeOfName(makeStreamName('pt', id))).toBe('Passthrough');
  });

  it('parses playback names: in, out or as, a plus sign, a UUID', () => {
    expect(parsePlaybackName(`out+${id}`)).toEqual({ prefix: 'out', id });
    expect(parsePlaybackName(`as+${id.toUpperCase()}`)).toEqual({ prefix: 'as', id });
    expect(parsePlaybackName(`pt+${id}`)).toBeNull();
    expect(parsePlaybackName(`in+${id}x`)).toBeNull();
    expect(parsePlaybackName('in+not-a-uuid')).toBeNull();
  });
});
